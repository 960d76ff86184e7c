import HCaptcha from '@hcaptcha/react-hcaptcha';
import { Box, Text, useComputedColorScheme } from '@mantine/core';
import { Turnstile, type TurnstileInstance } from '@marsidev/react-turnstile';
import { useImperativeHandle, useRef, type Ref } from 'react';
import type { CaptchaVerdict } from '../../../contract/account';
import { ApiError, apiFetch } from '../../lib/api';
import type { AppConfig } from '../../lib/app-config';

type Captcha = NonNullable<AppConfig['captcha']>;

export const captchaLabel = (captcha: Captcha) => (captcha.provider === 'hcaptcha' ? 'hCaptcha' : 'Turnstile');

export interface CaptchaFieldHandle {
  /** Clears the widget, so the trader solves it again (after a failure, or once its pass was used). */
  reset(): void;
}

interface CaptchaFieldProps {
  captcha: Captcha;
  /** The one-time pass from POST /api/verify-recaptcha, or null when there is none (expired, failed, reset). */
  onPass: (pass: string | null) => void;
  onError: (message: string) => void;
  ref?: Ref<CaptchaFieldHandle>;
}

/**
 * The official hCaptcha or Cloudflare Turnstile widget (submit stays disabled until it passes). The
 * widget's token is checked by our server once (POST /api/verify-recaptcha), which answers with a pass for
 * the sign-up; the sign-up itself is refused without one.
 */
export function CaptchaField({ captcha, onPass, onError, ref }: CaptchaFieldProps) {
  const scheme = useComputedColorScheme('dark');
  const hcaptcha = useRef<HCaptcha>(null);
  const turnstile = useRef<TurnstileInstance>(null);
  const label = captchaLabel(captcha);

  const reset = () => {
    onPass(null);
    hcaptcha.current?.resetCaptcha();
    turnstile.current?.reset();
  };
  useImperativeHandle(ref, () => ({ reset }));

  const verify = async (token: string) => {
    try {
      const result = await apiFetch<CaptchaVerdict>('/api/verify-recaptcha', {
        method: 'POST',
        body: JSON.stringify({ token }),
      });
      if (result.success && result.pass) {
        onPass(result.pass);
        return;
      }
      // The message, with the token cleared.
      onError(`${label} verification failed. Please try again.`);
    } catch (error) {
      onError(`reCAPTCHA verification failed: ${error instanceof ApiError ? error.status : 'network error'}`);
    }
    reset();
  };

  return (
    <Box data-testid="captcha" data-provider={captcha.provider}>
      <Text size="sm" fw={500} mb={4} id="captcha-label">
        Verification
      </Text>
      <div role="group" aria-labelledby="captcha-label">
        {captcha.provider === 'hcaptcha' ? (
          <HCaptcha
            ref={hcaptcha}
            sitekey={captcha.siteKey}
            theme={scheme}
            sentry={false}
            onVerify={(token) => void verify(token)}
            onExpire={() => onPass(null)}
            onError={() => {
              onPass(null);
              onError(`${label} verification failed. Please try again.`);
            }}
          />
        ) : (
          <Turnstile
            ref={turnstile}
            siteKey={captcha.siteKey}
            options={{ theme: scheme }}
            onSuccess={(token) => void verify(token)}
            onExpire={() => onPass(null)}
            onError={() => {
              onPass(null);
              onError(`${label} verification failed. Please try again.`);
            }}
          />
        )}
      </div>
    </Box>
  );
}
