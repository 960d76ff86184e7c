import { Button } from '@mantine/core';
import { IconBrandGoogle } from '@tabler/icons-react';
import { useState } from 'react';
import { authClient } from '../../lib/auth-client';

interface GoogleSignInButtonProps {
  label: 'Sign in with Google' | 'Sign up with Google';
  /** Where to land after Google sends the user back. */
  callbackPath: string;
  disabled?: boolean;
  onError: (message: string) => void;
}

/** Rendered only when the server has Google sign-in configured (GET /api/config googleSignIn). */
export function GoogleSignInButton({ label, callbackPath, disabled, onError }: GoogleSignInButtonProps) {
  const [loading, setLoading] = useState(false);
  const start = async () => {
    setLoading(true);
    try {
      const { error } = await authClient.signIn.social({
        provider: 'google',
        callbackURL: `${window.location.origin}${callbackPath}`,
        errorCallbackURL: `${window.location.origin}/login`,
      });
      if (error) onError('Failed to sign in with Google. Please try again.');
    } catch {
      onError('Failed to sign in with Google. Please try again.');
    } finally {
      setLoading(false);
    }
  };
  return (
    <Button
      variant="default"
      fullWidth
      leftSection={<IconBrandGoogle size={18} aria-hidden="true" />}
      loading={loading}
      disabled={disabled}
      onClick={start}
      data-testid="google-sign-in"
    >
      {label}
    </Button>
  );
}
