import { Alert, Anchor, Button, Divider, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useAppConfig } from '../../lib/app-config';
import { authClient, nameFromEmail } from '../../lib/auth-client';
import { afterSignInPath } from '../../lib/redirect-state';
import { refreshSession, useSession } from '../../lib/session';
import { AuthLayout } from './auth-layout';
import { CaptchaField, captchaLabel, type CaptchaFieldHandle } from './captcha-field';
import { OAuthButtons, useOAuthError } from './oauth-buttons';
import { EmailField } from './email-field';
import { PasswordField } from './password-field';
import { checkNewPassword } from './password-rules';

const SIGN_UP_FAILED = 'Failed to sign up. Please try again with a different email.';

export function RegisterPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const { data: session } = useSession();
  const { data: config, isPending: configPending } = useAppConfig();

  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [checkEmail, setCheckEmail] = useState(false);
  const [captchaPass, setCaptchaPass] = useState<string | null>(null);
  const captchaField = useRef<CaptchaFieldHandle>(null);
  const submitting = useRef(false);

  const oauthError = useOAuthError(config);
  const captcha = config?.captcha ?? null;
  const captchaMissing = captcha !== null && captchaPass === null;

  /** A pass is good for one sign-up: hand it over and make the trader solve the widget again next time. */
  const takeCaptchaPass = (): string | null | undefined => {
    if (!captcha) return undefined;
    const pass = captchaPass;
    captchaField.current?.reset();
    return pass;
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting.current) return;
    const ruleError = checkNewPassword(password, confirmation);
    if (ruleError) {
      setError(ruleError);
      return;
    }
    if (captcha && !captchaPass) {
      setError(`Please complete the ${captchaLabel(captcha)} verification`);
      return;
    }
    submitting.current = true;
    setError(null);
    setLoading(true);
    try {
      const pass = takeCaptchaPass();
      const { error: signUpError } = await authClient.signUp.email(
        { email, password, name: nameFromEmail(email) },
        pass ? { headers: { 'x-captcha-response': pass } } : undefined,
      );
      if (signUpError) {
        setError(signUpError.message || SIGN_UP_FAILED);
        return;
      }
      if (config?.emailVerification) {
        // 'Check your email to confirm your account.'
        setCheckEmail(true);
        return;
      }
      // Without email verification the account is confirmed at once: make sure we hold a session, then go in.
      const { data: fresh } = await authClient.getSession();
      if (!fresh) {
        const { error: signInError } = await authClient.signIn.email({ email, password });
        if (signInError) {
          navigate('/login', { replace: true });
          return;
        }
      }
      await refreshSession(queryClient);
      navigate(afterSignInPath(location.state), { replace: true });
    } catch {
      setError(SIGN_UP_FAILED);
    } finally {
      setLoading(false);
      submitting.current = false;
    }
  };

  if (session && !loading && !checkEmail) return <Navigate to="/" replace />;

  if (checkEmail) {
    return (
      <AuthLayout title="Create Account">
        <Alert color="green" variant="light" title="Account created" data-testid="register-success">
          Check your email to confirm your account.
        </Alert>
        <Text size="sm" ta="center">
          Confirmed already?{' '}
          <Anchor component={Link} to="/login" fw={600}>
            Sign in
          </Anchor>
        </Text>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Create Account" subtitle="Start journaling your trades with Edgebook.">
      {(error ?? oauthError) && (
        <Alert color="red" variant="light" data-testid="auth-error">
          {error ?? oauthError}
        </Alert>
      )}
      <form onSubmit={onSubmit}>
        <Stack gap="sm">
          <EmailField value={email} onChange={setEmail} testId="register-email" />
          <PasswordField
            label="Password"
            name="password"
            autoComplete="new-password"
            description="At least 8 characters"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            data-testid="register-password"
          />
          <PasswordField
            label="Confirm Password"
            name="confirm-password"
            autoComplete="new-password"
            value={confirmation}
            onChange={(e) => setConfirmation(e.currentTarget.value)}
            data-testid="register-confirm-password"
          />
          {captcha && <CaptchaField ref={captchaField} captcha={captcha} onPass={setCaptchaPass} onError={setError} />}
          <Button type="submit" fullWidth loading={loading} disabled={captchaMissing || configPending} data-testid="register-submit">
            Create Account
          </Button>
        </Stack>
      </form>
      {config && (config.googleSignIn || config.oidc) && (
        <>
          <Divider label="or" labelPosition="center" />
          <OAuthButtons
            config={config}
            mode="sign-up"
            nextPath={afterSignInPath(location.state)}
            disabled={captchaMissing}
            beforeStart={(provider) => {
              if (!captcha) return '';
              if (!captchaPass) {
                // The registration error, worded for the provider the button names.
                setError(`Please complete the ${captchaLabel(captcha)} verification before signing up with ${provider}`);
                return null;
              }
              return takeCaptchaPass() ?? '';
            }}
            onError={setError}
          />
        </>
      )}
      <Text size="sm" ta="center">
        Already have an account?{' '}
        <Anchor component={Link} to="/login" state={location.state} fw={600}>
          Sign in
        </Anchor>
      </Text>
    </AuthLayout>
  );
}
