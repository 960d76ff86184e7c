import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ACCOUNT_KIND_LABELS } from '../../../../domain/prop/labels';
import { MoneyText } from '../../../components/money-text';
import { propStatusQuery } from '../../../shared/api';
import { useDashboard } from '../dashboard-context';
import { formatMoney, formatSignedMoney } from '../../prop/format';
import { pnlColor, TONE_COLOR } from '../format';
import classes from '../dashboard.module.css';
import { WidgetCard } from './widget-card';

const STATE = {
  ok: { label: 'On track', color: TONE_COLOR.positive, dot: 'var(--mantine-color-teal-6)' },
  near: { label: 'Near', color: TONE_COLOR.warning, dot: 'var(--mantine-color-yellow-5)' },
  breached: { label: 'Soft breach', color: TONE_COLOR.warning, dot: 'var(--mantine-color-orange-5)' },
  broken: { label: 'Broken', color: TONE_COLOR.negative, dot: 'var(--mantine-color-red-6)' },
} as const;

/**
 * One line per active prop account: its kind, green on track, amber within 25% of a limit or after a soft breach
 * today, red when a hard breach failed it, and the status's own headline (the same words as the account's page),
 * each opening the account's status. Realized P&L of closed trades only, as the line under them says.
 */
export function PropAccountsWidget({ widgetId, onRemove }: { widgetId: string; onRemove?: () => void }) {
  const { openAccounts } = useDashboard();
  const { data, isPending, isError } = useQuery(propStatusQuery);
  const accounts = (data?.accounts ?? []).filter((a) => a.active);

  return (
    <WidgetCard widgetId={widgetId} title="Prop Accounts" onRemove={onRemove}>
      {isPending ? (
        <Text size="sm" c="dimmed">
          Loading prop accounts...
        </Text>
      ) : isError ? (
        <Text size="sm" c={TONE_COLOR.negative}>
          Failed to load the prop accounts
        </Text>
      ) : accounts.length === 0 ? (
        <Stack gap="xs" align="flex-start" data-testid="prop-widget-empty">
          <Text size="sm" c="dimmed">
            No prop accounts with rules yet. Open an account in Account Management, then Rules &amp; Status.
          </Text>
          <Button size="xs" variant="light" onClick={openAccounts}>
            Manage accounts
          </Button>
        </Stack>
      ) : (
        <Stack gap="sm" data-testid="prop-widget-lines">
          {accounts.map((a) => {
            const state = STATE[a.state];
            return (
              <div key={a.account.id} className={classes.propLine} data-testid="prop-widget-line" data-state={a.state}>
                <span className={classes.propDot} style={{ background: state.dot }} aria-hidden="true" />
                <div className={classes.propLineBody}>
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Anchor component={Link} to={`/prop/${a.account.id}`} fw={600} size="sm" truncate>
                      {a.account.name}
                    </Anchor>
                    <Text size="sm" fw={700} ff="monospace" style={{ whiteSpace: 'nowrap' }} data-money>
                      {formatMoney(a.balance_cents, a.account.currency)}
                    </Text>
                  </Group>
                  <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
                    <Text size="xs" c={state.color} fw={600}>
                      {ACCOUNT_KIND_LABELS[a.account.kind]} · {state.label} · <MoneyText>{a.headline}</MoneyText>
                    </Text>
                    <Text size="xs" ff="monospace" c={pnlColor(a.profit_cents)} style={{ whiteSpace: 'nowrap' }} data-money>
                      {formatSignedMoney(a.profit_cents, a.account.currency)}
                    </Text>
                  </Group>
                </div>
              </div>
            );
          })}
          <Text size="xs" c="dimmed">
            Realized P&amp;L of closed trades, net of fees. Your firm&apos;s terms are authoritative.
          </Text>
        </Stack>
      )}
    </WidgetCard>
  );
}
