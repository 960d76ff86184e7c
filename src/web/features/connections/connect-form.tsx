import {
  Alert,
  Anchor,
  Button,
  Group,
  List,
  Paper,
  PasswordInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconPlugConnected } from '@tabler/icons-react';
import { useReducer, type FormEvent, type ReactNode } from 'react';
import { formatMoney, toCents } from '../../../domain/cents';
import { CREDENTIAL_OF, type ProviderId } from '../../../domain/connections/providers';
import { useConnect, useTestConnection } from './api';
import { CONFIGURED_FIRM, connectFormReducer, connectionInputOf, initialConnectForm, type ConnectField } from './connect-form-state';

interface ConnectFormProps {
  /**
   * The providers this server connects to, with their names ('TopstepX', 'Binance'), and for ProjectX the firms it
   * offers, each at its own gateway ('configured' first).
   */
  providers: Array<{ id: ProviderId; label: string; firms?: ReadonlyArray<{ id: string; label: string; host: string }> }>;
  /** A second login: the form says so. */
  another?: boolean;
  onConnected?: () => void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong. Try again.');

/** How to get what each provider's form asks for, in the trader's steps. */
function steps(provider: ProviderId, label: string): ReactNode[] {
  switch (provider) {
    case 'topstepx':
      return [
        <>
          In {label}, open <b>Settings</b>, then <b>API</b>, and create an API key. API access is an add-on that {label} sells; without it there is no
          key.
        </>,
        <>Enter your {label} user name and the key below. Test the connection, then connect.</>,
      ];
    case 'binance':
      return [
        <>
          In Binance, open <b>API Management</b> and create an API key (system generated). Tick only <b>Enable Reading</b>: leave trading, transfers
          and withdrawals off. Edgebook refuses a key that may withdraw.
        </>,
        <>If you can, restrict the key to this server's IP address.</>,
        <>Enter the API key and the secret key below (Binance shows the secret only once). Test the connection, then connect.</>,
      ];
    case 'bybit':
      return [
        <>
          In Bybit, open <b>API</b> and create a system-generated API key with <b>Read-Only</b> permissions. Edgebook refuses a key that may withdraw.
        </>,
        <>If you can, restrict the key to this server's IP address.</>,
        <>Enter the API key and the secret below. Test the connection, then connect.</>,
      ];
    case 'hyperliquid':
      return [<>Enter the address of the wallet you trade with on Hyperliquid (0x…): its trade history is public, so no key is needed.</>];
  }
}

/**
 * Connect a provider: a ProjectX firm (TopstepX and others, each at its own gateway) with a user name and an API key, Binance or Bybit with a read-only API key
 * and its secret, Hyperliquid with a wallet address. "Test connection" checks them with the provider and lists the
 * accounts without saving anything; "Connect" does the same and keeps the key, encrypted, on the server.
 */
export function ConnectForm({ providers, another, onConnected }: ConnectFormProps) {
  const [state, dispatch] = useReducer(connectFormReducer, providers[0]?.id ?? 'topstepx', initialConnectForm);
  const test = useTestConnection();
  const connect = useConnect();
  const busy = test.isPending || connect.isPending;
  const chosen = providers.find((p) => p.id === state.provider);
  // A ProjectX firm's gateway: the firms offered, when the provider has them.
  const firms = chosen?.firms ?? [];
  const label = firms.find((f) => f.id === state.firm)?.label ?? chosen?.label ?? 'TopstepX';
  const credential = CREDENTIAL_OF[state.provider];
  const exchange = state.provider !== 'topstepx';

  const input = () => {
    const read = connectionInputOf(state);
    if ('missing' in read) {
      dispatch({ type: 'tried', missing: read.missing });
      return null;
    }
    dispatch({ type: 'tried', missing: [] });
    return read.input;
  };

  const runTest = async () => {
    const body = input();
    if (!body) return;
    try {
      dispatch({ type: 'tested', tested: await test.mutateAsync(body) });
    } catch (failure) {
      dispatch({ type: 'failed', error: messageOf(failure) });
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = input();
    if (!body) return;
    try {
      await connect.mutateAsync(body);
      dispatch({ type: 'connected' });
      onConnected?.();
    } catch (failure) {
      dispatch({ type: 'failed', error: messageOf(failure) });
    }
  };

  const field = (name: ConnectField) => ({
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => dispatch({ type: 'type', field: name, value: e.currentTarget.value }),
    value: state[name],
  });
  const tested = state.tested;

  return (
    <Paper withBorder radius="md" p="md" data-testid="connect-form">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4">
            {another
              ? `Connect another ${label} ${credential === 'wallet' ? 'wallet' : credential === 'key-secret' ? 'key' : 'user'}`
              : `Connect ${label}`}
          </Title>
          {providers.length > 1 && (
            <SegmentedControl
              aria-label="Provider"
              data={providers.map((p) => ({ value: p.id, label: p.label }))}
              value={state.provider}
              onChange={(value) => dispatch({ type: 'choose-provider', provider: value as ProviderId })}
              disabled={busy}
              data-testid="connect-provider"
              w="fit-content"
              maw="100%"
            />
          )}
          <List type="ordered" size="sm" spacing={4}>
            {steps(state.provider, label).map((step, i) => (
              <List.Item key={i}>{step}</List.Item>
            ))}
          </List>
          {exchange && (
            <Text size="xs" c="dimmed" data-testid="connect-scope">
              Edgebook reads perpetual futures settled in USDT or USDC, in that currency. Coin-margined (inverse) contracts are not supported yet.
            </Text>
          )}
          {credential !== 'wallet' && (
            <Text size="xs" c="dimmed">
              The key is kept encrypted on this Edgebook server and is never shown again, not even to you. Remove the connection (or revoke the key in{' '}
              {label}) at any time.
            </Text>
          )}
          {firms.length > 1 && (
            <Select
              label="Firm"
              description="Each firm on ProjectX has its own users and API keys"
              data={firms.map((f) => ({ value: f.id, label: `${f.label} (${f.host})` }))}
              value={state.firm}
              onChange={(value) => dispatch({ type: 'choose-firm', firm: value ?? CONFIGURED_FIRM })}
              allowDeselect={false}
              disabled={busy}
              maw={420}
              data-testid="connect-firm"
            />
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {credential === 'user-key' && (
              <TextInput
                label={`${label} user name`}
                {...field('userName')}
                error={state.missing.has('userName') ? 'Enter your user name' : null}
                autoComplete="username"
                maxLength={200}
                data-testid="connect-user-name"
              />
            )}
            {credential !== 'wallet' && (
              <PasswordInput
                label="API key"
                {...field('apiKey')}
                error={state.missing.has('apiKey') ? 'Enter the API key' : null}
                autoComplete="off"
                maxLength={1000}
                data-testid="connect-api-key"
              />
            )}
            {credential === 'key-secret' && (
              <PasswordInput
                label="Secret key"
                {...field('apiSecret')}
                error={state.missing.has('apiSecret') ? 'Enter the secret key' : null}
                autoComplete="off"
                maxLength={1000}
                data-testid="connect-api-secret"
              />
            )}
            {credential === 'wallet' && (
              <TextInput
                label="Wallet address"
                placeholder="0x…"
                {...field('wallet')}
                error={state.missing.has('wallet') ? 'Enter the wallet address' : null}
                autoComplete="off"
                spellCheck={false}
                maxLength={100}
                data-testid="connect-wallet"
              />
            )}
          </SimpleGrid>
          {state.error && (
            <Alert color="red" variant="light" role="alert" data-testid="connect-error">
              {state.error}
            </Alert>
          )}
          {tested && (
            <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} aria-hidden="true" />} data-testid="connect-tested">
              <Text size="sm" fw={600}>
                {label} {credential === 'wallet' ? 'found the wallet' : 'accepted the key'}: {tested.accounts.length}{' '}
                {tested.accounts.length === 1 ? 'account' : 'accounts'}.
              </Text>
              <List size="sm" mt={4}>
                {tested.accounts.map((a) => (
                  <List.Item key={a.external_id}>
                    {a.name}
                    {a.balance !== null && ` · ${formatMoney(toCents(a.balance), a.currency)}`}
                    {!a.active && ' · inactive'}
                  </List.Item>
                ))}
              </List>
            </Alert>
          )}
          {tested?.key_warning && (
            <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden="true" />} data-testid="connect-key-warning">
              {tested.key_warning}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button
              variant="default"
              onClick={() => void runTest()}
              loading={test.isPending}
              disabled={busy && !test.isPending}
              data-testid="connect-test"
            >
              Test connection
            </Button>
            <Button
              type="submit"
              leftSection={<IconPlugConnected size={16} aria-hidden="true" />}
              loading={connect.isPending}
              disabled={busy && !connect.isPending}
              data-testid="connect-submit"
            >
              Connect
            </Button>
          </Group>
          {exchange ? (
            <Text size="xs" c="dimmed">
              Edgebook reads your accounts, fills, funding and price bars only: it never places or changes an order, and never moves funds.
            </Text>
          ) : (
            <Text size="xs" c="dimmed">
              Edgebook reads your accounts, fills and price bars only: it never places or changes an order. The gateway's documentation:{' '}
              <Anchor href="https://gateway.docs.projectx.com" target="_blank" rel="noopener noreferrer">
                gateway.docs.projectx.com
              </Anchor>
              .
            </Text>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
