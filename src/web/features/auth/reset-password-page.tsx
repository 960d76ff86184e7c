import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { authClient } from '../../lib/auth-client';
import { AuthLayout } from './auth-layout';
import { PasswordField } from './password-field';
import { checkNewPassword } from './password-rules';

// "Password reset redirect 2000 ms".
const REDIRECT_AFTER_RESET_MS = 2000;

export function ResetPasswordPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const linkError = params.get('error');

  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [done, setDone] = useState(false);
  const [invalid, setInvalid] = useState(false);
  const redirectTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  // A token typed or pasted by hand is checked at once, not when the new password is submitted: the
  // server's link endpoint answers by redirecting here with ?token= (valid) or ?error=INVALID_TOKEN.
  const [checked, setChecked] = useState<string | null>(null);
  useEffect(() => {
    if (!token || linkError) return;
    let live = true;
    const callbackURL = `${window.location.origin}/reset-password`;
    fetch(`/api/auth/reset-password/${encodeURIComponent(token)}?callbackURL=${encodeURIComponent(callbackURL)}`, { redirect: 'follow' })
      .then((res) => {
        if (live && new URL(res.url).searchParams.get('error')) setInvalid(true);
      })
      .catch(() => {
        // Unreachable server: the form stays, and submitting says what went wrong.
      })
      .finally(() => {
        if (live) setChecked(token);
      });
    return () => {
      live = false;
    };
  }, [token, linkError]);

  // The emailed link lands here with ?token=...; an expired or used one comes back with ?error=INVALID_TOKEN.
  if (!token || linkError || invalid) return <InvalidResetLink />;
  if (checked !== token) {
    return (
      <AuthLayout title="Set New Password" subtitle="Checking your reset link…">
        <Group justify="center" p="md">
          <Loader size="sm" role="status" aria-label="Checking your reset link" />
        </Group>
      </AuthLayout>
    );
  }

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const ruleError = checkNewPassword(password, confirmation);
    if (ruleError) {
      setError(ruleError);
      return;
    }
    setError(null);
    setLoading(true);
    try {
      const { error: resetError } = await authClient.resetPassword({ newPassword: password, token });
      if (resetError) {
        if (resetError.code === 'INVALID_TOKEN') setInvalid(true);
        else setError(resetError.message || 'Failed to reset password');
        return;
      }
      setDone(true);
      redirectTimer.current = window.setTimeout(() => navigate('/login', { replace: true }), REDIRECT_AFTER_RESET_MS);
    } catch {
      setError('Failed to reset password');
    } finally {
      setLoading(false);
    }
  };

  return (
    <AuthLayout title="Set New Password" subtitle="Choose a new password for your account.">
      {done && (
        <Alert color="green" variant="light" data-testid="reset-success">
          Password successfully reset! Redirecting to login...
        </Alert>
      )}
      {error && (
        <Alert color="red" variant="light" data-testid="auth-error">
          {error}
        </Alert>
      )}
      <form onSubmit={onSubmit}>
        <Stack gap="sm">
          <PasswordField
            label="New Password"
            name="new-password"
            autoComplete="new-password"
            description="At least 8 characters"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            disabled={done}
            data-testid="reset-password"
          />
          <PasswordField
            label="Confirm New Password"
            name="confirm-password"
            autoComplete="new-password"
            value={confirmation}
            onChange={(e) => setConfirmation(e.currentTarget.value)}
            disabled={done}
            data-testid="reset-confirm-password"
          />
          <Button type="submit" fullWidth loading={loading} disabled={done} data-testid="reset-submit">
            Reset Password
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}

function InvalidResetLink() {
  return (
    <AuthLayout title="Invalid Reset Link">
      <Text size="sm" data-testid="invalid-reset-link">
        Invalid or expired password reset link. Please request a new one.
      </Text>
      <Button component={Link} to="/forgot-password" fullWidth data-testid="request-new-reset-link">
        Request New Reset Link
      </Button>
    </AuthLayout>
  );
}
