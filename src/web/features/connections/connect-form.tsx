import { Alert, Anchor, Button, Group, List, Paper, PasswordInput, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCircleCheck, IconPlugConnected } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { formatUsd, toCents } from '../../../domain/cents';
import { useConnect, useTestConnection, type ConnectionTest } from './api';

interface ConnectFormProps {
  /** The server's configured firm's name ('TopstepX'). */
  label: string;
  /** The ProjectX firms this server offers, each at its own gateway ('configured' first). */
  firms?: ReadonlyArray<{ id: string; label: string; host: string }>;
  /** A second login: the form starts folded and says so. */
  another?: boolean;
  onConnected?: () => void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong. Try again.');

/**
 * Connect a TopstepX (ProjectX) login: its user name and an API key from TopstepX's settings. "Test connection" signs in
 * and lists the accounts without saving anything; "Connect" does the same and keeps the key, encrypted, on the server.
 */
export function ConnectForm({ label: configuredLabel, firms = [], another, onConnected }: ConnectFormProps) {
  const [firm, setFirm] = useState('configured');
  const label = firms.find((f) => f.id === firm)?.label ?? configuredLabel;
  const [userName, setUserName] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [tested, setTested] = useState<ConnectionTest | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState<{ user?: boolean; key?: boolean }>({});
  const test = useTestConnection();
  const connect = useConnect();
  const busy = test.isPending || connect.isPending;

  const input = () => {
    const problems = { user: userName.trim() === '', key: apiKey.trim() === '' };
    setMissing(problems);
    return problems.user || problems.key
      ? null
      : { provider: 'topstepx' as const, ...(firm !== 'configured' && { firm }), user_name: userName.trim(), api_key: apiKey.trim() };
  };

  const runTest = async () => {
    const body = input();
    if (!body) return;
    setError(null);
    setTested(null);
    try {
      setTested(await test.mutateAsync(body));
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = input();
    if (!body) return;
    setError(null);
    try {
      await connect.mutateAsync(body);
      setApiKey('');
      setTested(null);
      onConnected?.();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  return (
    <Paper withBorder radius="md" p="md" data-testid="connect-form">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4">
            {another ? `Connect another ${label} user` : `Connect ${label}`}
          </Title>
          <List type="ordered" size="sm" spacing={4}>
            <List.Item>
              In {label}, open <b>Settings</b>, then <b>API</b>, and create an API key. API access is an add-on that {label} sells; without it
              there is no key.
            </List.Item>
            <List.Item>Enter your {label} user name and the key below. Test the connection, then connect.</List.Item>
          </List>
          <Text size="xs" c="dimmed">
            The key is kept encrypted on this Edgebook server and is never shown again, not even to you. Remove the connection (or revoke the key
            in {label}) at any time.
          </Text>
          {firms.length > 1 && (
            <Select
              label="Firm"
              description="Each firm on ProjectX has its own users and API keys"
              data={firms.map((f) => ({ value: f.id, label: `${f.label} (${f.host})` }))}
              value={firm}
              onChange={(value) => {
                setFirm(value ?? 'configured');
                setTested(null);
              }}
              allowDeselect={false}
              maw={420}
              data-testid="connect-firm"
            />
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label={`${label} user name`}
              value={userName}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setUserName(value);
                if (value.trim()) setMissing((m) => ({ ...m, user: false }));
              }}
              error={missing.user ? 'Enter your user name' : null}
              autoComplete="username"
              maxLength={200}
              data-testid="connect-user-name"
            />
            <PasswordInput
              label="API key"
              value={apiKey}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setApiKey(value);
                if (value.trim()) setMissing((m) => ({ ...m, key: false }));
              }}
              error={missing.key ? 'Enter the API key' : null}
              autoComplete="off"
              maxLength={1000}
              data-testid="connect-api-key"
            />
          </SimpleGrid>
          {error && (
            <Alert color="red" variant="light" role="alert" data-testid="connect-error">
              {error}
            </Alert>
          )}
          {tested && (
            <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} aria-hidden="true" />} data-testid="connect-tested">
              <Text size="sm" fw={600}>
                {label} accepted the key: {tested.accounts.length} {tested.accounts.length === 1 ? 'account' : 'accounts'}.
              </Text>
              <List size="sm" mt={4}>
                {tested.accounts.map((a) => (
                  <List.Item key={a.external_id}>
                    {a.name}
                    {a.balance !== null && ` · ${formatUsd(toCents(a.balance))}`}
                    {!a.active && ' · inactive'}
                  </List.Item>
                ))}
              </List>
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => void runTest()} loading={test.isPending} disabled={busy && !test.isPending} data-testid="connect-test">
              Test connection
            </Button>
            <Button type="submit" leftSection={<IconPlugConnected size={16} aria-hidden="true" />} loading={connect.isPending} disabled={busy && !connect.isPending} data-testid="connect-submit">
              Connect
            </Button>
          </Group>
          <Text size="xs" c="dimmed">
            Edgebook reads your accounts, fills and price bars only: it never places or changes an order. The gateway's documentation:{' '}
            <Anchor href="https://gateway.docs.projectx.com" target="_blank" rel="noopener noreferrer">
              gateway.docs.projectx.com
            </Anchor>
            .
          </Text>
        </Stack>
      </form>
    </Paper>
  );
}
