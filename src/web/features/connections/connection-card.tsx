import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  List,
  Menu,
  Modal,
  Paper,
  PasswordInput,
  Progress,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle, IconDots, IconKey, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { getTodayInZone } from '../../../domain/dates';
import { ConfirmDialog } from '../../components/confirm-dialog';
import type { PropAccountSummary, TradingAccount } from '../../shared/api';
import { AccountFormModal } from '../accounts';
import { useMapAccount, useRemoveConnection, useReplaceKey, useSyncNow, type BrokerAccount, type BrokerConnection } from './api';
import { BrokerAccountRow } from './broker-account-row';
import { PropOfferModal, type PropOffer } from './prop-offer-modal';
import { describeProgress, formatWhen } from './format';
import { toastError, toastSuccess } from '../../lib/toast';
import classes from './connections.module.css';

interface ConnectionCardProps {
  connection: BrokerConnection;
  tradingAccounts: TradingAccount[];
  /** Trading accounts some broker account already syncs into. */
  taken: ReadonlySet<string>;
  /** Minutes between scheduled syncs (0: only Sync now). */
  syncMinutes: number;
  timeZone: string;
  /** The trader's prop accounts (those with rules) by trading account id: their standing, and no second offer. */
  propAccounts: ReadonlyMap<string, PropAccountSummary>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong. Try again.');

/** One connected login: its state, its sync (under way or last), its accounts and where each one syncs to. */
export function ConnectionCard({ connection, tradingAccounts, taken, syncMinutes, timeZone, propAccounts }: ConnectionCardProps) {
  const label = connection.provider_label;
  const sync = useSyncNow();
  const map = useMapAccount();
  const remove = useRemoveConnection();
  const [replacing, setReplacing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [creatingFor, setCreatingFor] = useState<BrokerAccount | null>(null);
  const [offer, setOffer] = useState<PropOffer | null>(null);
  const running = connection.sync.running || sync.isPending;
  const mapped = connection.accounts.some((a) => a.account_id !== null);
  const today = getTodayInZone(new Date(), timeZone);

  const syncNow = async () => {
    try {
      await sync.mutateAsync(connection.id);
    } catch (error) {
      toastError('Could not start the sync', messageOf(error));
    }
  };
  const mapTo = async (account: BrokerAccount, input: { account_id?: string | null; sync_from?: string; prop?: { template_id: string } }) => {
    try {
      await map.mutateAsync({ connectionId: connection.id, accountId: account.id, input });
      return true;
    } catch (error) {
      toastError(`Could not change ${account.name}`, messageOf(error));
      return false;
    }
  };
  /** Into a trading account without prop rules: first the offer to add them (or not). */
  const chooseTarget = (account: BrokerAccount, target: TradingAccount | undefined) => {
    // A crypto exchange's account is no prop firm's: nothing to offer.
    if (!target || target.id === account.account_id || propAccounts.has(target.id) || connection.credential !== 'user-key')
      void mapTo(account, { account_id: target?.id ?? null });
    else setOffer({ account, target });
  };
  const answerOffer = async (templateId: string | null) => {
    if (!offer) return;
    const done = await mapTo(offer.account, { account_id: offer.target.id, ...(templateId && { prop: { template_id: templateId } }) });
    // Taken, its standing shows in the account's row at once.
    if (done) setOffer(null);
  };
  const confirmRemove = async () => {
    try {
      await remove.mutateAsync(connection.id);
      setRemoving(false);
      toastSuccess(
        `${label} connection removed`,
        hasKey ? 'The saved API key is deleted; synced trades stay in your journal.' : 'Synced trades stay in your journal.',
      );
    } catch (error) {
      setRemoving(false);
      toastError('Could not remove the connection', messageOf(error));
    }
  };

  const outcome = connection.last_outcome;
  const progress = describeProgress(connection.sync.progress, label);
  const hasKey = connection.credential !== 'wallet';
  return (
    <Paper withBorder radius="md" p="md" data-testid="connection-card" data-user={connection.user_name}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="wrap" miw={0}>
            <Title order={2} size="h4">
              {label}
            </Title>
            <Text c="dimmed" size="sm" className={classes.wrap}>
              {connection.user_name}
            </Text>
            {connection.status === 'connected' ? (
              <Badge color="teal.9" variant="filled" data-testid="connection-status">
                Connected
              </Badge>
            ) : (
              <Badge color="red.9" variant="filled" data-testid="connection-status">
                Needs a new API key
              </Badge>
            )}
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Tooltip label="Choose a trading account for an account below first" disabled={mapped}>
              <Button
                leftSection={<IconRefresh size={16} aria-hidden="true" />}
                onClick={() => void syncNow()}
                loading={running}
                disabled={!mapped}
                data-testid="connection-sync"
              >
                Sync now
              </Button>
            </Tooltip>
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="default" size="lg" aria-label={`More for ${label} ${connection.user_name}`} data-testid="connection-menu">
                  <IconDots size={18} aria-hidden="true" />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                {hasKey && (
                  <Menu.Item leftSection={<IconKey size={16} aria-hidden="true" />} onClick={() => setReplacing(true)}>
                    Replace API key
                  </Menu.Item>
                )}
                <Menu.Item
                  color="red"
                  leftSection={<IconTrash size={16} aria-hidden="true" />}
                  onClick={() => setRemoving(true)}
                  data-testid="connection-remove"
                >
                  Remove connection
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>

        {connection.status === 'error' && (
          <Alert color="red" variant="light" title="The saved key no longer works" data-testid="connection-error">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{connection.last_error}</Text>
              <Button size="xs" variant="light" color="red" leftSection={<IconKey size={14} aria-hidden="true" />} onClick={() => setReplacing(true)}>
                Replace API key
              </Button>
            </Stack>
          </Alert>
        )}

        {connection.key_warning && connection.status === 'connected' && (
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden="true" />} data-testid="connection-key-warning">
            {connection.key_warning}
          </Alert>
        )}

        {connection.sync.running ? (
          <Stack gap={4} data-testid="connection-progress" aria-live="polite">
            <Text size="sm">{progress.text}</Text>
            <Progress value={progress.percent ?? 100} animated striped={progress.percent === null} aria-label="Sync progress" />
          </Stack>
        ) : outcome ? (
          <Stack gap={4} data-testid="connection-outcome">
            {outcome.status === 'ok' ? (
              <Text size="sm">
                {outcome.trigger === 'schedule' ? 'Synced by the schedule' : 'Synced'} {formatWhen(outcome.finished_at)}:{' '}
                <b>
                  {outcome.added} {outcome.added === 1 ? 'trade' : 'trades'} added
                </b>
                {outcome.duplicates > 0 && `, ${outcome.duplicates} already in your journal`}
                {outcome.open_positions > 0 && `, ${outcome.open_positions} ${outcome.open_positions === 1 ? 'position' : 'positions'} still open`}
                {outcome.funding !== undefined &&
                  outcome.funding > 0 &&
                  `, ${outcome.funding} funding ${outcome.funding === 1 ? 'payment' : 'payments'} read`}
                {outcome.bars > 0 && `, ${outcome.bars.toLocaleString('en-US')} one-minute ${outcome.bars === 1 ? 'bar' : 'bars'} stored for replay`}.
              </Text>
            ) : (
              <Alert color="red" variant="light" title={`The sync ${formatWhen(outcome.finished_at)} failed`} data-testid="connection-failure">
                {outcome.message}
              </Alert>
            )}
            {outcome.warnings.length > 0 && (
              <Alert color="yellow" variant="light" data-testid="connection-warnings">
                <List size="sm" spacing={2}>
                  {outcome.warnings.map((warning) => (
                    <List.Item key={warning}>{warning}</List.Item>
                  ))}
                </List>
              </Alert>
            )}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            Not synced yet. Choose where each account's trades go, then Sync now.
          </Text>
        )}

        <Stack gap={0} className={classes.accounts}>
          {connection.accounts.map((account) => (
            <BrokerAccountRow
              key={account.id}
              account={account}
              tradingAccounts={tradingAccounts}
              taken={taken}
              busy={map.isPending || running}
              today={today}
              propStatus={account.account_id ? propAccounts.get(account.account_id) : undefined}
              onMap={(accountId) => chooseTarget(account, accountId === null ? undefined : tradingAccounts.find((a) => a.id === accountId))}
              onSyncFrom={(day) => void mapTo(account, { sync_from: day })}
              onCreate={() => setCreatingFor(account)}
            />
          ))}
        </Stack>

        <Text size="xs" c="dimmed">
          {syncMinutes > 0 ? `Edgebook also syncs every ${syncMinutes} minutes while it runs. ` : 'Syncs run when you click Sync now. '}A trade
          already in your journal (from an earlier sync, or from {label}'s{' '}
          {hasKey && connection.credential === 'user-key' ? 'CSV export' : 'trade-history export'}) is never added twice.
        </Text>
      </Stack>

      <ReplaceKeyModal connection={connection} opened={replacing} onClose={() => setReplacing(false)} />
      <ConfirmDialog
        opened={removing}
        title={`Remove the ${label} connection?`}
        confirmLabel="Remove"
        danger
        loading={remove.isPending}
        onConfirm={() => void confirmRemove()}
        onCancel={() => setRemoving(false)}
      >
        {hasKey ? 'Edgebook deletes the saved API key and stops syncing' : 'Edgebook stops syncing'} {connection.user_name}. The trades already in
        your journal stay.
      </ConfirmDialog>
      <AccountFormModal
        opened={creatingFor !== null}
        onClose={() => setCreatingFor(null)}
        initial={creatingFor ? { name: creatingFor.name.slice(0, 100) } : undefined}
        onSaved={(created) => {
          const account = creatingFor;
          if (account) chooseTarget(account, created);
        }}
      />
      <PropOfferModal
        offer={offer}
        label={label}
        busy={map.isPending}
        onMap={(templateId) => void answerOffer(templateId)}
        onCancel={() => setOffer(null)}
      />
    </Paper>
  );
}

function ReplaceKeyModal({ connection, opened, onClose }: { connection: BrokerConnection; opened: boolean; onClose: () => void }) {
  const replace = useReplaceKey();
  const [apiKey, setApiKey] = useState('');
  const [apiSecret, setApiSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const withSecret = connection.credential === 'key-secret';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (apiKey.trim() === '' || (withSecret && apiSecret.trim() === '')) {
      setError(apiKey.trim() === '' ? 'Enter the new API key' : 'Enter its secret key');
      return;
    }
    try {
      await replace.mutateAsync({ id: connection.id, input: { api_key: apiKey.trim(), ...(withSecret && { api_secret: apiSecret.trim() }) } });
      setApiKey('');
      setApiSecret('');
      setError(null);
      toastSuccess('API key replaced', `${connection.provider_label} accepted the new key.`);
      onClose();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Replace API key" centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            {withSecret
              ? `Create a new read-only key in ${connection.provider_label} (API Management) and enter it with its secret here.`
              : `Create a new key in ${connection.provider_label} (Settings, API) for ${connection.user_name} and enter it here.`}{' '}
            Edgebook checks it before it replaces the old one.
          </Text>
          <PasswordInput
            label="New API key"
            value={apiKey}
            onChange={(e) => setApiKey(e.currentTarget.value)}
            error={withSecret ? null : error}
            autoComplete="off"
            data-autofocus
          />
          {withSecret && (
            <PasswordInput
              label="Its secret key"
              value={apiSecret}
              onChange={(e) => setApiSecret(e.currentTarget.value)}
              error={error}
              autoComplete="off"
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={replace.isPending}>
              Replace
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
