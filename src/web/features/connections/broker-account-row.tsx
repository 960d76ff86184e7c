import { Anchor, Badge, Button, Group, Select, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { Link } from 'react-router';
import { findPropTemplate } from '../../../domain/prop/templates';
import { isCalendarDay } from '../../../domain/dates';
import { formatMoney, toCents } from '../../../domain/cents';
import type { PropAccountSummary, TradingAccount } from '../../shared/api';
import { ACCOUNT_STATE, OUTCOME_LABEL } from '../prop/format';
import type { BrokerAccount } from './api';
import { formatTradingDay, formatWhen } from './format';
import classes from './connections.module.css';

/** The picker's value for "make a new trading account for it". */
export const NEW_ACCOUNT = '__new';

interface BrokerAccountRowProps {
  account: BrokerAccount;
  tradingAccounts: TradingAccount[];
  /** Trading accounts another broker account already syncs into: one each. */
  taken: ReadonlySet<string>;
  busy: boolean;
  today: string;
  /** The standing of the trading account it syncs into, when that is a prop account with rules. */
  propStatus?: PropAccountSummary;
  onMap: (accountId: string | null) => void;
  onSyncFrom: (day: string) => void;
  onCreate: () => void;
}

/** One account at the broker: where it syncs to, from which day, and how its last sync went. */
export function BrokerAccountRow({ account, tradingAccounts, taken, busy, today, propStatus, onMap, onSyncFrom, onCreate }: BrokerAccountRowProps) {
  const suggested = account.suggested_account_id ? tradingAccounts.find((a) => a.id === account.suggested_account_id) : undefined;
  const options = [
    { value: '', label: 'Not synced' },
    ...tradingAccounts.map((a) => ({ value: a.id, label: a.name, disabled: taken.has(a.id) && a.id !== account.account_id })),
    { value: NEW_ACCOUNT, label: 'New trading account…' },
  ];
  return (
    <div className={classes.account} data-testid="broker-account" data-name={account.name}>
      <Stack gap={6} className={classes.accountName}>
        <Group gap={6} wrap="wrap">
          <Text fw={600} size="sm" className={classes.wrap}>
            {account.name}
          </Text>
          {!account.active && (
            <Badge size="xs" variant="light" color="gray">
              Inactive
            </Badge>
          )}
          {!account.listed && (
            <Badge size="xs" variant="light" color="orange">
              No longer listed
            </Badge>
          )}
        </Group>
        {account.balance !== null && (
          <Text size="xs" c="dimmed">
            Balance {formatMoney(toCents(account.balance), account.currency)}
          </Text>
        )}
        {account.open_positions && account.open_positions.length > 0 && (
          <Stack gap={0} data-testid="broker-open-positions">
            {account.open_positions.map((position) => (
              <Text key={`${position.contract}|${position.side}`} size="xs" c="orange" data-testid="broker-open-position">
                Open: {position.side} {position.size} {position.contract} at {position.average_price} since {formatWhen(position.since)}
              </Text>
            ))}
          </Stack>
        )}
      </Stack>
      <Stack gap={6} className={classes.accountTarget}>
        <Select
          label="Trading account"
          data={options}
          value={account.account_id ?? ''}
          onChange={(value) => {
            if (value === NEW_ACCOUNT) onCreate();
            else onMap(value ? value : null);
          }}
          allowDeselect={false}
          disabled={busy}
          comboboxProps={{ withinPortal: true }}
          data-testid="broker-account-target"
        />
        {suggested && !account.account_id && (
          <Group gap={6} wrap="wrap">
            <Text size="xs" c="dimmed">
              Your imports of this account went to {suggested.name}.
            </Text>
            <Button size="compact-xs" variant="light" onClick={() => onMap(suggested.id)} disabled={busy || taken.has(suggested.id)}>
              Sync into {suggested.name}
            </Button>
          </Group>
        )}
      </Stack>
      {account.account_id && (
        <DatePickerInput
          label="Sync from"
          value={account.sync_from}
          onChange={(value) => {
            if (value && isCalendarDay(value) && value !== account.sync_from) onSyncFrom(value);
          }}
          maxDate={today}
          valueFormat="MMM D, YYYY"
          leftSection={<IconCalendar size={16} aria-hidden="true" />}
          previousLabel="Previous month"
          nextLabel="Next month"
          popoverProps={{ withinPortal: true }}
          disabled={busy}
          className={classes.accountFrom}
          data-testid="broker-account-from"
        />
      )}
      <Stack gap={6} className={classes.accountStatus}>
        <div data-testid="broker-account-status">
          <AccountStatus account={account} />
        </div>
        {propStatus && <PropStanding summary={propStatus} />}
      </Stack>
    </div>
  );
}

function AccountStatus({ account }: { account: BrokerAccount }) {
  if (!account.account_id) {
    return (
      <Text size="xs" c="dimmed">
        Choose a trading account to sync it.
      </Text>
    );
  }
  if (account.last_sync_status === 'error') {
    return (
      <Text size="xs" c="red" role="status">
        Last sync failed: {account.last_error}
      </Text>
    );
  }
  if (account.last_sync_at === null) {
    return (
      <Text size="xs" c="dimmed">
        Not synced yet: Sync now reads its trades since {account.sync_from ? formatTradingDay(account.sync_from) : 'the day you choose'}.
      </Text>
    );
  }
  const added = account.last_sync_added ?? 0;
  return (
    <Text size="xs" c="dimmed">
      Synced {formatWhen(account.last_sync_at)}: {added === 0 ? 'nothing new' : `${added} ${added === 1 ? 'trade' : 'trades'} added`}.
    </Text>
  );
}

/** Where the prop account it syncs into stands against its rules, and the way to its Rules & Status page. */
function PropStanding({ summary }: { summary: PropAccountSummary }) {
  const template = summary.template_id ? findPropTemplate(summary.template_id) : undefined;
  const state = ACCOUNT_STATE[summary.state];
  return (
    <Group gap={6} wrap="wrap" data-testid="broker-account-prop" data-state={summary.state}>
      <Badge size="sm" variant="filled" color={state.color} autoContrast tt="none" data-testid="broker-account-prop-state">
        {state.label}
      </Badge>
      <Text size="xs" c="dimmed" className={classes.wrap}>
        {template ? `${template.firm} ${template.plan}` : 'Prop rules'}
        {summary.outcome !== 'active' && `: ${OUTCOME_LABEL[summary.outcome]}`}
      </Text>
      <Anchor component={Link} to={`/prop/${summary.account.id}`} size="xs">
        Rules &amp; Status
      </Anchor>
    </Group>
  );
}
