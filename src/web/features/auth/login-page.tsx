import { Alert, Anchor, Button, Divider, Group, Stack, Text } from '@mantine/core';
import { IconClockExclamation, IconMailCheck } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { FullPageLoader } from '../../components/full-page-loader';
import { supportHref, useAppConfig } from '../../lib/app-config';
import { authClient } from '../../lib/auth-client';
import { afterSignInPath, cameFromExpiry } from '../../lib/redirect-state';
import { SESSION_EXPIRED_TEXT, SESSION_EXPIRED_TITLE } from '../../lib/session-expiry';
import { refreshSession, useSession } from '../../lib/session';
import { AuthLayout } from './auth-layout';
import { OAuthButtons, useOAuthError } from './oauth-buttons';
import { TwoFactorStep } from './two-factor-step';
import { EmailField } from './email-field';
import { PasswordField } from './password-field';

const SIGN_IN_FAILED = 'Failed to sign in. Please check your credentials and try again.';
// "Unconfirmed-email retry 3000 ms".
const UNCONFIRMED_RETRY_MS = 3000;

type Unconfirmed = 'retrying' | 'still-unconfirmed' | null;

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const { data: session, isPending } = useSession();
  const { data: config } = useAppConfig();

  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [unconfirmed, setUnconfirmed] = useState<Unconfirmed>(null);
  const [resendState, setResendState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const [twoFactor, setTwoFactor] = useState(false);
  const oauthError = useOAuthError(config);
  const retryTimer = useRef<number | undefined>(undefined);
  const signingIn = useRef(false);

  useEffect(() => () => window.clearTimeout(retryTimer.current), []);

  const finishSignIn = async () => {
    // Wait for the session so the protected page does not see a signed-out state and bounce back here.
    await refreshSession(queryClient);
    navigate(afterSignInPath(location.state), { replace: true });
  };

  const attemptSignIn = async (isRetry: boolean) => {
    const { data, error: signInError } = await authClient.signIn.email({ email, password });
    if (!signInError && (data as { twoFactorRedirect?: boolean } | null)?.twoFactorRedirect) {
      // The password was right; the session comes after the second factor.
      setTwoFactor(true);
      setLoading(false);
      signingIn.current = false;
      return;
    }
    if (!signInError) {
      await finishSignIn();
      return;
    }
    if (signInError.status === 403 && signInError.code === 'EMAIL_NOT_VERIFIED') {
      if (isRetry) {
        setUnconfirmed('still-unconfirmed');
        setLoading(false);
        signingIn.current = false;
        return;
      }
      // Email confirmation: show 'Confirming Your Email' and retry once after 3 seconds.
      setUnconfirmed('retrying');
      retryTimer.current = window.setTimeout(() => {
        void attemptSignIn(true).catch(() => {
          setUnconfirmed('still-unconfirmed');
          setLoading(false);
          signingIn.current = false;
        });
      }, UNCONFIRMED_RETRY_MS);
      return;
    }
    setUnconfirmed(null);
    setError(signInError.message || SIGN_IN_FAILED);
    setLoading(false);
    signingIn.current = false;
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (signingIn.current) return;
    signingIn.current = true;
    setError(null);
    setUnconfirmed(null);
    setResendState('idle');
    setLoading(true);
    try {
      await attemptSignIn(false);
    } catch {
      setError(SIGN_IN_FAILED);
      setLoading(false);
      signingIn.current = false;
    }
  };

  const resend = async () => {
    setResendState('sending');
    try {
      const { error: sendError } = await authClient.sendVerificationEmail({
        email,
        callbackURL: `${window.location.origin}/login`,
      });
      setResendState(sendError ? 'failed' : 'sent');
    } catch {
      setResendState('failed');
    }
  };

  if (isPending && !loading && !twoFactor) return <FullPageLoader />;
  // A logged-in user opening the login page goes to /.
  if (session && !loading && !twoFactor) return <Navigate to="/" replace />;

  const support = config?.links.support;

  if (twoFactor) {
    return (
      <AuthLayout title="Two-Factor Authentication" subtitle="One more step to keep your journal yours.">
        <TwoFactorStep onDone={finishSignIn} onCancel={() => setTwoFactor(false)} />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Sign In"
      subtitle="Welcome back to your trading journal."
      footer={
        support ? (
          <Text size="sm" ta="center" c="dimmed">
            Need help?{' '}
            <Anchor href={supportHref(support)} data-testid="support-contact">
              Contact support
            </Anchor>
          </Text>
        ) : null
      }
    >
      {cameFromExpiry(location.state) && !error && (
        <Alert
          color="yellow"
          variant="light"
          title={SESSION_EXPIRED_TITLE}
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
          icon={<IconClockExclamation size={18} aria-hidden="true" />}
          role="status"
          data-testid="session-expired"
        >
          {SESSION_EXPIRED_TEXT}
        </Alert>
      )}
      {(error ?? oauthError) && (
        <Alert color="red" variant="light" data-testid="auth-error">
          {error ?? oauthError}
        </Alert>
      )}
      {unconfirmed && (
        <Alert
          color="blue"
          variant="light"
          title="Confirming Your Email"
          icon={<IconMailCheck size={18} aria-hidden="true" />}
          data-testid="email-unconfirmed"
        >
          <Stack gap="xs">
            <Text size="sm">
              {unconfirmed === 'retrying'
                ? 'Your email address is not confirmed yet. Trying again in a moment...'
                : 'Your email address is not confirmed yet. Open the confirmation link we emailed you, then sign in.'}
            </Text>
            {unconfirmed === 'still-unconfirmed' && (
              <Group gap="xs">
                <Button size="xs" variant="outline" onClick={resend} loading={resendState === 'sending'} disabled={resendState === 'sent'}>
                  Resend confirmation email
                </Button>
                {resendState === 'sent' && (
                  <Text size="sm" role="status">
                    Confirmation email sent. Check your inbox.
                  </Text>
                )}
                {resendState === 'failed' && (
                  <Text size="sm" c="var(--mantine-color-error)" role="status">
                    Failed to send the confirmation email.
                  </Text>
                )}
              </Group>
            )}
          </Stack>
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate={false}>
        <Stack gap="sm">
          <EmailField value={email} onChange={setEmail} testId="login-email" />
          <PasswordField
            label="Password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            data-testid="login-password"
          />
          <Group justify="flex-end">
            <Anchor component={Link} to="/forgot-password" size="sm">
              Forgot password?
            </Anchor>
          </Group>
          <Button type="submit" fullWidth loading={loading} data-testid="login-submit">
            Sign In
          </Button>
        </Stack>
      </form>
      {config && (config.googleSignIn || config.oidc) && (
        <>
          <Divider label="or" labelPosition="center" />
          <OAuthButtons config={config} mode="sign-in" nextPath={afterSignInPath(location.state)} onError={setError} />
        </>
      )}
      <Text size="sm" ta="center">
        Don&apos;t have an account?{' '}
        <Anchor component={Link} to="/register" state={location.state} fw={600}>
          Sign up
        </Anchor>
      </Text>
    </AuthLayout>
  );
}
