import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '../shared/api/keys';
import { apiFetch } from './api';

// GET /api/config: public settings of this Edgebook server; its shape is the contract's (types only).
import type { AppConfig } from '../../contract/config';

export type { AppConfig };

/** What every AI button says when the server has no provider: plainly, and how to configure one. */
export const AI_NOT_CONFIGURED_HINT =
  'AI is not configured on this server. Ask the administrator to set AI_BASE_URL and AI_API_KEY for an OpenAI-compatible provider (OpenAI, DeepSeek, Ollama or llama.cpp; see "AI providers" in docs/self-hosting.md).';

export const appConfigQuery = queryOptions({
  queryKey: queryKeys.config.all,
  queryFn: () => apiFetch<AppConfig>('/api/config'),
  staleTime: 5 * 60_000,
  retry: 2,
});

export function useAppConfig() {
  return useQuery(appConfigQuery);
}

/** A support contact may be an address or a URL; addresses become mailto: links. */
export function supportHref(support: string): string {
  if (/^(mailto:|https?:\/\/)/i.test(support)) return support;
  return `mailto:${support}`;
}
