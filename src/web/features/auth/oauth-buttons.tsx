import { Button, Stack } from '@mantine/core';
import { IconBrandGoogle, IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { AppConfig } from '../../lib/app-config';
import { authClient } from '../../lib/auth-client';
import { TOO_MANY_ATTEMPTS_CODE, tooManyAttemptsMessage } from '../../../domain/sign-in';

export type OAuthProvider = 'google' | 'oidc';

/** The provider's name as its button and messages show it. */
export function providerName(provider: string | null, config: AppConfig | undefined): string {
  if (provider === 'oidc') return config?.oidc?.name ?? 'single sign-on';
  return 'Google';
}

/** 'Failed to sign in with Google. Please try again.'; the same words for the OpenID provider. */
export const oauthFailed = (name: string) => `Failed to sign in with ${name}. Please try again.`;

/**
 * What a failed return from the provider means for the trader (the codes better-auth puts in ?error=); `wait` is the
 * back-off in seconds of an account with too many failed sign-ins (server/auth/provider-sign-in.ts).
 */
export function oauthErrorMessage(code: string, name: string, wait?: number): string {
  if (code === TOO_MANY_ATTEMPTS_CODE) return tooManyAttemptsMessage(wait && wait > 0 ? wait : 1);
  if (code === 'account_not_linked') {
    return `This email already has an Edgebook account, and ${name} did not confirm the address is yours. Sign in with your password.`;
  }
  if (code === 'signup_disabled') return `No Edgebook account uses this ${name} account yet. Create one on the sign-up page.`;
  if (code === 'access_denied') return `${name} sign-in was cancelled.`;
  return oauthFailed(name);
}

/** The message for a failed return from the provider (/auth-callback.html forwards ?oauth_error=&provider=). */
export function useOAuthError(config: AppConfig | undefined): string | null {
  const [params] = useSearchParams();
  const code = params.get('oauth_error');
  if (!code) return null;
  return oauthErrorMessage(code, providerName(params.get('provider'), config), Number(params.get('wait')) || undefined);
}

interface OAuthButtonsProps {
  config: AppConfig;
  mode: 'sign-in' | 'sign-up';
  /** Where to land after signing in (an app path). */
  nextPath: string;
  disabled?: boolean;
  /** Runs before leaving for the provider: the captcha pass for a sign-up, or null to stop (it shows why). */
  beforeStart?: (providerName: string) => Promise<string | null> | string | null;
  onError: (message: string) => void;
}

/**
 * 'Sign in with Google' / 'Sign up with Google' and the same for the OpenID provider, each shown only when the
 * server configures it. The provider sends the browser back through /auth-callback.html.
 */
export function OAuthButtons({ config, mode, nextPath, disabled, beforeStart, onError }: OAuthButtonsProps) {
  const [pending, setPending] = useState<OAuthProvider | null>(null);
  const providers: OAuthProvider[] = [...(config.googleSignIn ? (['google'] as const) : []), ...(config.oidc ? (['oidc'] as const) : [])];
  if (providers.length === 0) return null;

  const start = async (provider: OAuthProvider) => {
    const name = providerName(provider, config);
    setPending(provider);
    try {
      let pass: string | null | undefined;
      if (beforeStart) {
        pass = await beforeStart(name);
        if (pass === null) return;
      }
      const back = (path: string) => `/auth-callback.html?${new URLSearchParams({ next: path, provider })}`;
      const { error } = await authClient.signIn.social(
        {
          provider,
          callbackURL: back(nextPath),
          errorCallbackURL: back(mode === 'sign-up' ? '/register' : '/login'),
          requestSignUp: mode === 'sign-up' ? true : undefined,
        },
        pass ? { headers: { 'x-captcha-response': pass } } : undefined,
      );
      // On success the browser is already on its way to the provider.
      if (error) {
        onError(error.message || oauthFailed(name));
        setPending(null);
      }
    } catch {
      onError(oauthFailed(name));
      setPending(null);
    }
  };

  return (
    <Stack gap="xs">
      {providers.map((provider) => {
        const name = providerName(provider, config);
        return (
          <Button
            key={provider}
            variant="default"
            fullWidth
            leftSection={provider === 'google' ? <IconBrandGoogle size={18} aria-hidden="true" /> : <IconKey size={18} aria-hidden="true" />}
            loading={pending === provider}
            disabled={disabled || (pending !== null && pending !== provider)}
            onClick={() => void start(provider)}
            data-testid={`${provider}-${mode}`}
          >
            {`${mode === 'sign-up' ? 'Sign up' : 'Sign in'} with ${name}`}
          </Button>
        );
      })}
    </Stack>
  );
}
