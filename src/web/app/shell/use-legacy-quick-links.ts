import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { parseLegacyQuickLinks } from '../../../domain/links/quick-links';
import { apiFetch } from '../../lib/api';
import { useSession } from '../../lib/session';
import { STORAGE_KEYS, readStorage } from '../../lib/storage-keys';
import { queryKeys } from '../../shared/api';
import type { QuickLinkImport } from '../../../contract/quick-links';

/** The server takes at most this many links in one import. */
const IMPORT_MAX = 200;
const started = new Set<string>();

function removeLegacyList() {
  try {
    window.localStorage.removeItem(STORAGE_KEYS.legacyQuickLinks);
  } catch {
    /* storage unavailable: nothing to remove */
  }
}

/**
 * After sign-in, the legacy browser list `trader-quick-links` moves to the server if the trader has
 * no links there yet (the server decides, under a lock, so two tabs import it once). The browser copy is removed
 * once the server has answered, so this happens once; on a network failure it is tried again on the next load.
 */
export function useLegacyQuickLinksMigration() {
  const queryClient = useQueryClient();
  const userId = useSession().data?.user.id;
  useEffect(() => {
    if (!userId || started.has(userId)) return;
    const raw = readStorage(STORAGE_KEYS.legacyQuickLinks);
    if (raw === null) return;
    started.add(userId);
    const links = parseLegacyQuickLinks(raw).slice(0, IMPORT_MAX);
    if (links.length === 0) {
      removeLegacyList();
      return;
    }
    apiFetch<QuickLinkImport>('/api/quick-links/import', {
      method: 'POST',
      body: JSON.stringify({ links, only_if_empty: true }),
    })
      .then((result) => {
        removeLegacyList();
        queryClient.setQueryData(queryKeys.quickLinks.all, result.links);
      })
      .catch(() => started.delete(userId));
  }, [userId, queryClient]);
}
