import { Text } from '@mantine/core';
import type { AppConfig } from '../../lib/app-config';

interface CaptchaFieldProps {
  captcha: NonNullable<AppConfig['captcha']>;
  /** Receives the widget's token (sent as the x-captcha-response header), or null when it expires. */
  onToken: (token: string | null) => void;
}

/**
 * The place for the hCaptcha / Cloudflare Turnstile widget (spec part 2 §5: submit stays disabled until the captcha
 * passes). Shown only when the server configures a captcha. The widget itself comes with the captcha issue; until
 * then this renders its container and never reports a token, so a captcha-protected form cannot be submitted.
 */
export function CaptchaField({ captcha }: CaptchaFieldProps) {
  return (
    <div data-testid="captcha" data-provider={captcha.provider} data-sitekey={captcha.siteKey}>
      <Text size="sm" c="dimmed">
        Captcha verification is required but not yet available in this version of Edgebook.
      </Text>
    </div>
  );
}
