import { useLocalStorage } from '@mantine/hooks';
import { STORAGE_KEYS } from '../../lib/storage-keys';

/** Desktop sidebar state, remembered in localStorage 'sidebar-collapsed' (spec part 1 §2.3). */
export function useSidebarCollapsed() {
  return useLocalStorage<boolean>({
    key: STORAGE_KEYS.sidebarCollapsed,
    defaultValue: false,
    getInitialValueInEffect: false,
    serialize: (value) => (value ? 'true' : 'false'),
    deserialize: (value) => value === 'true',
  });
}
