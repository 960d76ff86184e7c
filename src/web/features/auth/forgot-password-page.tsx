import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { authClient } from '../../lib/auth-client';
import { EmailField } from './email-field';
import { AuthLayout } from './auth-layout';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [status, setStatus] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setStatus('sending');
    try {
      const { error } = await authClient.requestPasswordReset({
        email,
        redirectTo: `${window.location.origin}/reset-password`,
      });
      setStatus(error ? 'failed' : 'sent');
    } catch {
      setStatus('failed');
    }
  };

  return (
    <AuthLayout title="Reset Password" subtitle="Enter your email and we'll send you a link to set a new password.">
      {status === 'sent' && (
        <Alert color="green" variant="light" data-testid="forgot-success">
          Password reset link sent! Check your email inbox.
        </Alert>
      )}
      {status === 'failed' && (
        <Alert color="red" variant="light" data-testid="auth-error">
          Failed to send reset link
        </Alert>
      )}
      <form onSubmit={onSubmit}>
        <Stack gap="sm">
          <EmailField value={email} onChange={setEmail} testId="forgot-email" />
          <Button type="submit" fullWidth loading={status === 'sending'} data-testid="forgot-submit">
            Send Reset Link
          </Button>
        </Stack>
      </form>
      <Text size="sm" ta="center">
        Remembered it?{' '}
        <Anchor component={Link} to="/login" fw={600}>
          Back to Sign In
        </Anchor>
      </Text>
    </AuthLayout>
  );
}
