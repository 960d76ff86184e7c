import { useLocalStorage } from '@mantine/hooks';
import { STORAGE_KEYS } from '../../lib/storage-keys';

/**
 * Desktop sidebar state, remembered in localStorage 'sidebar-collapsed'; `collapsedByDefault` when
 * nothing is stored, or nothing can be (the shell drawn at build time, src/web/prerender.tsx).
 */
export function useSidebarCollapsed(collapsedByDefault = false) {
  return useLocalStorage<boolean>({
    key: STORAGE_KEYS.sidebarCollapsed,
    defaultValue: collapsedByDefault,
    getInitialValueInEffect: false,
    serialize: (value) => (value ? 'true' : 'false'),
    deserialize: (value) => value === 'true',
  });
}
