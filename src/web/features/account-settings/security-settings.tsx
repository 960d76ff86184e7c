import { Alert, Badge, Button, Code, CopyButton, Group, Loader, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { useState, type FormEvent } from 'react';
import { authClient } from '../../lib/auth-client';
import { refreshSession, useSession } from '../../lib/session';
import { useTraderTime } from '../../shared/trader-clock';
import { PasswordField } from '../auth/password-field';
import { checkNewPassword } from '../auth/password-rules';
import { queryKeys } from '../../shared/api';
import { notifyError, notifySuccess, sessionsQuery, signInMethodsQuery } from './api';

/** "Chrome on Linux" from a user agent: enough to tell one's own devices apart. */
export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : null;
  const os = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? userAgent.slice(0, 40);
}

const PROVIDER_NAMES: Record<string, string> = { google: 'Google', oidc: 'your organization’s sign-in' };

/** Profile settings, Security: password, sessions, two-factor authentication ("Account controls"). */
export function SecuritySettings() {
  const methods = useQuery(signInMethodsQuery);
  if (methods.isPending) return <Loader role="status" aria-label="Loading security settings" />;
  if (methods.isError) return <Text c="var(--mantine-color-error)">Failed to load security settings</Text>;
  const hasPassword = methods.data.includes('credential');
  const others = methods.data.filter((m) => m !== 'credential').map((m) => PROVIDER_NAMES[m] ?? m);
  return (
    <Stack gap="lg">
      <Section title="Password">
        {hasPassword ? (
          <ChangePasswordForm />
        ) : (
          <Text size="sm">You sign in with {others.join(' and ')}. There is no Edgebook password to change.</Text>
        )}
      </Section>
      <Section title="Two-factor authentication">
        {hasPassword ? (
          <TwoFactorSettings />
        ) : (
          <Text size="sm">Two-factor authentication protects password sign-in. Your provider applies its own second factor.</Text>
        )}
      </Section>
      <Section title="Sessions">
        <SessionList />
      </Section>
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap="xs" component="section">
      <Title order={3} size="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function ChangePasswordForm() {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const ruleError = checkNewPassword(next, confirmation);
    if (ruleError) {
      setError(ruleError);
      return;
    }
    setError(null);
    setSaving(true);
    const { error: changeError } = await authClient
      .changePassword({ currentPassword: current, newPassword: next, revokeOtherSessions: true })
      .catch(() => ({ error: { message: 'Failed to change password' } }));
    setSaving(false);
    if (changeError) {
      setError(
        changeError.message === 'Invalid password' ? 'The current password is not right.' : changeError.message || 'Failed to change password',
      );
      return;
    }
    setCurrent('');
    setNext('');
    setConfirmation('');
    notifySuccess('Password changed. Your other devices were signed out.');
    void queryClient.invalidateQueries({ queryKey: queryKeys.accountSettings.sessions });
  };

  return (
    <form onSubmit={onSubmit} data-testid="change-password-form">
      <Stack gap="xs">
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <PasswordField label="Current password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.currentTarget.value)} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          <PasswordField
            label="New password"
            autoComplete="new-password"
            description="At least 8 characters"
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
          />
          <PasswordField
            label="Confirm new password"
            autoComplete="new-password"
            value={confirmation}
            onChange={(e) => setConfirmation(e.currentTarget.value)}
          />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          Changing your password signs out every other device.
        </Text>
        <Group justify="flex-end">
          <Button type="submit" loading={saving}>
            Change Password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function SessionList() {
  const queryClient = useQueryClient();
  const sessions = useQuery(sessionsQuery);
  const { data: current } = useSession();
  const [busy, setBusy] = useState<string | null>(null);
  const clock = useTraderTime();

  if (sessions.isPending) return <Loader size="sm" role="status" aria-label="Loading sessions" />;
  if (sessions.isError) return <Text c="var(--mantine-color-error)">Failed to load sessions</Text>;

  const revoke = async (token: string | 'others') => {
    setBusy(token);
    const { error } = token === 'others' ? await authClient.revokeOtherSessions() : await authClient.revokeSession({ token });
    setBusy(null);
    if (error) notifyError('Failed to sign out the session');
    else notifySuccess(token === 'others' ? 'Signed out of every other device' : 'Session signed out');
    void queryClient.invalidateQueries({ queryKey: queryKeys.accountSettings.sessions });
  };

  const sorted = [...sessions.data].sort((a, b) =>
    a.id === current?.session.id ? -1 : b.id === current?.session.id ? 1 : +new Date(b.createdAt) - +new Date(a.createdAt),
  );
  return (
    <Stack gap="xs" data-testid="session-list">
      {sorted.map((session) => {
        const isCurrent = session.id === current?.session.id;
        return (
          <Paper key={session.id} withBorder p="sm" radius="md" data-testid="session-row">
            <Group justify="space-between" wrap="nowrap" gap="sm">
              <Stack gap={2} miw={0}>
                <Group gap="xs">
                  <Text size="sm" fw={600}>
                    {describeDevice(session.userAgent)}
                  </Text>
                  {isCurrent && (
                    <Badge size="sm" variant="light" color="green">
                      This device
                    </Badge>
                  )}
                </Group>
                <Text size="xs" c="dimmed">
                  {session.ipAddress ?? 'Unknown address'} · signed in {clock.format(new Date(session.createdAt), 'MMM d, yyyy HH:mm')}{' '}
                  {clock.zoneName(new Date(session.createdAt))}
                </Text>
              </Stack>
              {!isCurrent && (
                <Button size="xs" variant="default" loading={busy === session.token} onClick={() => void revoke(session.token)}>
                  Sign out
                </Button>
              )}
            </Group>
          </Paper>
        );
      })}
      {sessions.data.length > 1 && (
        <Group justify="flex-end">
          <Button size="xs" variant="light" color="red" loading={busy === 'others'} onClick={() => void revoke('others')}>
            Sign out all other devices
          </Button>
        </Group>
      )}
    </Stack>
  );
}

type Enrolment = { totpURI: string; backupCodes: string[] };

function TwoFactorSettings() {
  const queryClient = useQueryClient();
  const { data: session } = useSession();
  const refetch = () => refreshSession(queryClient);
  const enabled = Boolean((session?.user as { twoFactorEnabled?: boolean } | undefined)?.twoFactorEnabled);
  const [step, setStep] = useState<'idle' | 'password' | 'scan' | 'codes' | 'disable' | 'regenerate'>('idle');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const reset = () => {
    setStep('idle');
    setPassword('');
    setCode('');
    setError(null);
    setEnrolment(null);
  };

  const withBusy = async (run: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await run();
    } finally {
      setBusy(false);
    }
  };

  const start = () =>
    withBusy(async () => {
      const { data, error: enableError } = await authClient.twoFactor.enable({ password });
      if (enableError || !data) {
        setError(
          enableError?.message === 'Invalid password'
            ? 'The password is not right.'
            : enableError?.message || 'Failed to turn on two-factor authentication',
        );
        return;
      }
      setEnrolment(data as Enrolment);
      setPassword('');
      setStep('scan');
    });

  const confirm = () =>
    withBusy(async () => {
      const { error: verifyError } = await authClient.twoFactor.verifyTotp({ code: code.replace(/\s+/g, '') });
      if (verifyError) {
        setError('Invalid code. Please try again.');
        return;
      }
      setCodes(enrolment?.backupCodes ?? []);
      setCode('');
      setStep('codes');
      await refetch();
    });

  const disable = () =>
    withBusy(async () => {
      const { error: disableError } = await authClient.twoFactor.disable({ password });
      if (disableError) {
        setError(
          disableError.message === 'Invalid password'
            ? 'The password is not right.'
            : disableError.message || 'Failed to turn off two-factor authentication',
        );
        return;
      }
      reset();
      notifySuccess('Two-factor authentication is off');
      await refetch();
    });

  const regenerate = () =>
    withBusy(async () => {
      const { data, error: generateError } = await authClient.twoFactor.generateBackupCodes({ password });
      if (generateError || !data) {
        setError(
          generateError?.message === 'Invalid password' ? 'The password is not right.' : generateError?.message || 'Failed to make new backup codes',
        );
        return;
      }
      setPassword('');
      setCodes(data.backupCodes);
      setStep('codes');
    });

  const secret = enrolment ? (new URL(enrolment.totpURI).searchParams.get('secret') ?? '') : '';
  const errorAlert = error && (
    <Alert color="red" variant="light" role="alert">
      {error}
    </Alert>
  );
  const passwordForm = (label: string, action: () => Promise<void>, color?: string) => (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void action();
      }}
    >
      <Stack gap="xs">
        {errorAlert}
        <PasswordField
          label="Your password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          data-testid="two-factor-password"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={reset}>
            Cancel
          </Button>
          <Button type="submit" color={color} loading={busy} data-testid="two-factor-password-submit">
            {label}
          </Button>
        </Group>
      </Stack>
    </form>
  );

  if (step === 'codes') {
    const text = codes.join('\n');
    return (
      <Stack gap="xs" data-testid="backup-codes">
        <Text size="sm">
          Save these backup codes somewhere safe. Each one signs you in once if you lose your authenticator app; they will not be shown again.
        </Text>
        <Code block>{text}</Code>
        <Group justify="flex-end">
          <CopyButton value={text}>
            {({ copied, copy }) => (
              <Button variant="default" size="xs" onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button
            variant="default"
            size="xs"
            component="a"
            href={`data:text/plain;charset=utf-8,${encodeURIComponent(`Edgebook backup codes\n\n${text}\n`)}`}
            download="edgebook-backup-codes.txt"
          >
            Download
          </Button>
          <Button size="xs" onClick={reset} data-testid="backup-codes-done">
            Done
          </Button>
        </Group>
      </Stack>
    );
  }

  if (step === 'scan' && enrolment) {
    return (
      <Stack gap="xs" data-testid="two-factor-enrol">
        <Text size="sm">
          Scan this code with your authenticator app (1Password, Aegis, Google Authenticator, ...), then enter the 6-digit code it shows.
        </Text>
        <Group align="flex-start" gap="md">
          <Paper p="xs" bg="white" radius="sm" data-testid="two-factor-qr">
            <QRCodeSVG value={enrolment.totpURI} size={148} title="Authenticator app QR code" />
          </Paper>
          <Stack gap={4} miw={0} style={{ flex: 1 }}>
            <Text size="xs" c="dimmed">
              Or type this key:
            </Text>
            <Code data-testid="two-factor-secret" style={{ wordBreak: 'break-all' }}>
              {secret}
            </Code>
          </Stack>
        </Group>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void confirm();
          }}
        >
          <Stack gap="xs">
            {errorAlert}
            <TextInput
              label="Authentication code"
              autoComplete="one-time-code"
              inputMode="numeric"
              required
              withAsterisk={false}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              data-testid="two-factor-enrol-code"
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={reset}>
                Cancel
              </Button>
              <Button type="submit" loading={busy} data-testid="two-factor-enrol-submit">
                Turn On
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    );
  }

  if (step === 'password') return passwordForm('Continue', start);
  if (step === 'disable') return passwordForm('Turn Off', disable, 'red');
  if (step === 'regenerate') return passwordForm('Make New Codes', regenerate);

  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Group gap="xs">
        <Badge color={enabled ? 'green' : 'gray'} variant="light" data-testid="two-factor-status">
          {enabled ? 'On' : 'Off'}
        </Badge>
        <Text size="sm">
          {enabled ? 'Sign-in asks for a code from your authenticator app.' : 'Add a code from an authenticator app to your password sign-in.'}
        </Text>
      </Group>
      {enabled ? (
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={() => setStep('regenerate')}>
            New Backup Codes
          </Button>
          <Button size="xs" variant="light" color="red" onClick={() => setStep('disable')} data-testid="two-factor-disable">
            Turn Off
          </Button>
        </Group>
      ) : (
        <Button size="xs" onClick={() => setStep('password')} data-testid="two-factor-enable">
          Turn On
        </Button>
      )}
    </Group>
  );
}
