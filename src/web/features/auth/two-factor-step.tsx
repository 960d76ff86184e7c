import { Alert, Anchor, Button, Checkbox, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { authClient } from '../../lib/auth-client';

const INVALID_CODE = 'Invalid code. Please try again.';

/**
 * The second step of a password sign-in when the trader turned on two-factor authentication: a code from the
 * authenticator app, or one of the backup codes.
 */
export function TwoFactorStep({ onDone, onCancel }: { onDone: () => Promise<void> | void; onCancel: () => void }) {
  const [mode, setMode] = useState<'totp' | 'backup'>('totp');
  const [code, setCode] = useState('');
  const [trustDevice, setTrustDevice] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setLoading(true);
    try {
      const trimmed = code.replace(/\s+/g, '');
      const { error: verifyError } =
        mode === 'totp'
          ? await authClient.twoFactor.verifyTotp({ code: trimmed, trustDevice })
          : await authClient.twoFactor.verifyBackupCode({ code: trimmed, trustDevice });
      if (verifyError) {
        // A wrong code answers 401 'Invalid code'; too many tries, a lock or the limit say so themselves.
        setError(verifyError.status === 401 ? INVALID_CODE : verifyError.message || INVALID_CODE);
        setLoading(false);
        return;
      }
      await onDone();
    } catch {
      setError(INVALID_CODE);
      setLoading(false);
    }
  };

  return (
    <Stack gap="sm" data-testid="two-factor-step">
      <Text size="sm">
        {mode === 'totp'
          ? 'Enter the 6-digit code from your authenticator app.'
          : 'Enter one of the backup codes you saved when you turned on two-factor authentication. Each code works once.'}
      </Text>
      {error && (
        <Alert color="red" variant="light" data-testid="auth-error">
          {error}
        </Alert>
      )}
      <form onSubmit={onSubmit}>
        <Stack gap="sm">
          <TextInput
            key={mode}
            label={mode === 'totp' ? 'Authentication code' : 'Backup code'}
            name={mode === 'totp' ? 'totp' : 'backup-code'}
            autoComplete="one-time-code"
            inputMode={mode === 'totp' ? 'numeric' : 'text'}
            required
            withAsterisk={false}
            autoFocus
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            data-testid="two-factor-code"
          />
          <Checkbox label="Trust this device for 30 days" checked={trustDevice} onChange={(e) => setTrustDevice(e.currentTarget.checked)} />
          <Button type="submit" fullWidth loading={loading} data-testid="two-factor-submit">
            Verify
          </Button>
        </Stack>
      </form>
      <Stack gap={4} align="center">
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => {
            setMode(mode === 'totp' ? 'backup' : 'totp');
            setCode('');
            setError(null);
          }}
          data-testid="two-factor-switch"
        >
          {mode === 'totp' ? 'Use a backup code instead' : 'Use your authenticator app instead'}
        </Anchor>
        <Anchor component="button" type="button" size="sm" c="dimmed" onClick={onCancel}>
          Back to Sign In
        </Anchor>
      </Stack>
    </Stack>
  );
}
