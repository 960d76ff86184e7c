import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from './api';

// GET /api/config: public settings of this Edgebook server.
export interface AppConfig {
  emailVerification: boolean;
  googleSignIn: boolean;
  captcha: null | { provider: 'hcaptcha' | 'cloudflare-turnstile'; siteKey: string };
  links: { community: string; social: string; support: string };
}

export const configQueryKeys = {
  all: ['config'] as const,
};

export const appConfigQuery = queryOptions({
  queryKey: configQueryKeys.all,
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
