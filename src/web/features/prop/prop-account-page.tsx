import { Alert, Anchor, Badge, Button, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconCircleCheck, IconInfoCircle, IconPencil, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ACCOUNT_KIND_LABELS } from '../../../domain/prop/labels';
import { findPropTemplate } from '../../../domain/prop/templates';
import { toCents } from '../../../domain/cents';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ApiError } from '../../lib/api';
import { pnlColor } from '../../lib/tone';
import { preferencesQuery, propAccountQuery, type PropAccountDetail } from '../../shared/api';
import { useRemoveRules } from './api';
import { DayTradesDrawer } from './day-trades-drawer';
import { ACCOUNT_STATE, describeBreachMoment, formatDayWithYear, formatLongDay, formatMoney, formatSignedMoney, OUTCOME_LABEL } from './format';
import { LedgerCard } from './ledger-card';
import { RuleList } from './rule-list';
import { StatusChart } from './status-chart';
import { withAllStyles } from '../../lib/all-styles';
import { ShareButton } from '../sharing';

const RulesEditor = lazy(withAllStyles(() => import('./rules-editor').then((m) => ({ default: m.RulesEditor }))));

const DEFAULT_TIME_ZONE = 'America/New_York';

function Stat({ label, children, testId }: { label: string; children: React.ReactNode; testId: string }) {
  return (
    <Card withBorder radius="md" padding="sm" data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fw={700} size="lg" ff="monospace" component="div">
        {children}
      </Text>
    </Card>
  );
}

function NotFound() {
  return (
    <Stack align="flex-start" gap="sm" data-testid="prop-not-found">
      <title>Account not found · Edgebook</title>
      <Title order={1} size="h2">
        Account not found
      </Title>
      <Text c="dimmed">There is no such trading account in your journal.</Text>
      <Button component={Link} to="/" variant="light" leftSection={<IconArrowLeft size={16} aria-hidden="true" />}>
        Back to Dashboard
      </Button>
    </Stack>
  );
}

/**
 * The rule set's plan: the day its figures were read and where, and which of them only reviews gave, so that nothing
 * claims a check of the firm's page that did not happen.
 */
function PlanLine({ detail }: { detail: PropAccountDetail }) {
  const template = detail.rule_set?.template_id ? findPropTemplate(detail.rule_set.template_id) : undefined;
  if (!detail.rule_set) return null;
  const fromReviews = template ? template.figures.filter((f) => !f.fromFirm).length : 0;
  return (
    <Text size="xs" c="dimmed" data-testid="prop-plan">
      {template ? (
        <>
          Rules from the {template.firm} {template.plan} template, figures read on {template.checkedOn}
          {fromReviews > 0
            ? `, ${fromReviews} of ${template.figures.length} read in third-party reviews: confirm them with your firm`
            : ` on ${template.firm}'s own pages`}{' '}
          (
          <Anchor href={template.sourceUrl} target="_blank" rel="noopener noreferrer" size="xs">
            the firm&apos;s page
          </Anchor>
          ), edited here as you set them.{' '}
        </>
      ) : (
        'Rules set by hand. '
      )}
      The firm&apos;s own terms are authoritative.
      {detail.rule_set.starts_on && ` Trades counted from ${formatLongDay(detail.rule_set.starts_on)}.`}
    </Text>
  );
}

/** The account's milestones: the day the target was reached, the day it passed, where the threshold stopped trailing. */
function Milestones({ status, currency }: { status: NonNullable<PropAccountDetail['status']>; currency: string }) {
  const parts = [
    status.targetReachedOn && `Target reached on ${formatDayWithYear(status.targetReachedOn)}`,
    status.passedOn && `passed on ${formatDayWithYear(status.passedOn)}`,
    status.thresholdLock &&
      `the threshold stopped trailing at ${formatMoney(status.thresholdLock.thresholdCents, currency)} on ${formatDayWithYear(status.thresholdLock.day)}`,
  ].filter(Boolean) as string[];
  if (parts.length === 0) return null;
  const text = parts.join('; ');
  return (
    <Text size="sm" data-testid="prop-milestones">
      {text.charAt(0).toUpperCase() + text.slice(1)}.
    </Text>
  );
}

/**
 * An account's prop status: first what decided it (a failure, a pass, a soft breach today), then where it stands
 * against each rule, how it got there, and what it cost.
 */
export function PropAccountPage() {
  const { id = '' } = useParams();
  const query = useQuery(propAccountQuery(id));
  const preferences = useQuery(preferencesQuery);
  const timeZone = preferences.data?.time_zone ?? DEFAULT_TIME_ZONE;
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [open, setOpen] = useState<{ day: string; tradeId: string | null } | null>(null);
  const remove = useRemoveRules(id);
  const missing = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);

  if (query.isPending) {
    return (
      <Group justify="center" p="xl">
        <Loader role="status" aria-label="Loading the account" />
      </Group>
    );
  }
  if (missing) return <NotFound />;
  if (query.isError) {
    return (
      <Stack align="flex-start" gap="sm">
        <Title order={1} size="h2">
          Account rules
        </Title>
        <Text c="dimmed">The account could not be loaded.</Text>
        <Button variant="light" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </Stack>
    );
  }

  const detail = query.data;
  const { account, status } = detail;
  const state = status ? ACCOUNT_STATE[status.state] : null;
  const today = status?.days.find((d) => d.day === detail.today);
  const daysRule = status?.rules.find((r) => r.rule === 'minTradingDays');
  const openDay = (day: string, tradeId: string | null) => setOpen({ day, tradeId });

  return (
    <Stack gap="md" data-testid="prop-account-page">
      <title>{`${account.name} rules · Edgebook`}</title>
      <Anchor component={Link} to="/" size="sm" w="fit-content">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden="true" /> Dashboard
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={4}>
          <Title order={1} size="h2" data-testid="prop-account-name">
            {account.name}
          </Title>
          <Group gap="xs">
            <Badge variant="light" color="blue" tt="none">
              {ACCOUNT_KIND_LABELS[account.kind]}
            </Badge>
            {account.firm && (
              <Badge variant="outline" color="gray" tt="none">
                {account.firm}
              </Badge>
            )}
            {account.size !== null && (
              <Badge variant="outline" color="gray" tt="none">
                {formatMoney(toCents(account.size), account.currency)}
              </Badge>
            )}
          </Group>
        </Stack>
        {status && state && (
          <Group gap="xs" wrap="nowrap">
            <Badge size="lg" color={state.color} autoContrast variant="filled" tt="none" data-testid="prop-state">
              {state.label}
            </Badge>
            {/* A failed account's badge says it: the alert below names the rule and the day. */}
            {status.outcome !== 'broken' && status.outcome !== 'active' && (
              <Text size="sm" fw={600} c={ACCOUNT_STATE.ok.text} data-testid="prop-outcome">
                {status.outcome === 'passed' && status.passedOn ? `Passed on ${formatDayWithYear(status.passedOn)}` : OUTCOME_LABEL[status.outcome]}
              </Text>
            )}
          </Group>
        )}
        {status && <ShareButton kind="prop" target={account.id} />}
      </Group>

      {status?.brokenBy && (
        <Alert
          variant="light"
          color="red"
          icon={<IconAlertTriangle size={18} aria-hidden="true" />}
          title={describeBreachMoment(status.brokenBy, timeZone)}
          data-testid="prop-broken"
        >
          <Text size="sm">{status.brokenBy.message}.</Text>
          <Group gap="xs" mt="xs">
            <Button size="xs" variant="light" color="red" component={Link} to={`/trade/${status.brokenBy.tradeId}`}>
              The trade
            </Button>
            <Button size="xs" variant="subtle" color="red" onClick={() => openDay(status.brokenBy!.day, status.brokenBy!.tradeId)}>
              Its day&apos;s trades
            </Button>
          </Group>
        </Alert>
      )}

      {status && !status.brokenBy && status.state === 'breached' && (
        <Alert
          variant="light"
          color="orange"
          icon={<IconAlertTriangle size={18} aria-hidden="true" />}
          title="Soft breach today"
          data-testid="prop-soft-breach"
        >
          <Text size="sm">{status.headline}. The account stands; the firm closes the trade or ends the day.</Text>
        </Alert>
      )}

      {status && !status.brokenBy && (status.outcome === 'passed' || status.outcome === 'payout-eligible') && (
        <Alert
          variant="light"
          color="teal"
          icon={<IconCircleCheck size={18} aria-hidden="true" />}
          title={status.headline}
          data-testid="prop-passed"
        />
      )}

      <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} aria-hidden="true" />} data-testid="prop-basis">
        From the realized P&amp;L of closed trades only, net of fees, in the order it was realized, each trade on the trading day of its exit: open
        positions and their prices are not known here, so a drawdown inside a trade is not seen. Never an estimate. Your firm&apos;s own terms are
        authoritative.
      </Alert>

      {status && <Milestones status={status} currency={account.currency} />}

      {status ? (
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
          <Stat label="Balance" testId="prop-balance">
            {formatMoney(status.balanceCents, account.currency)}
          </Stat>
          <Stat label="Since start" testId="prop-profit">
            <Text span inherit c={pnlColor(status.profitCents)}>
              {formatSignedMoney(status.profitCents, account.currency)}
            </Text>
          </Stat>
          <Stat label={`Today (${formatLongDay(detail.today)})`} testId="prop-today">
            <Text span inherit c={pnlColor(today?.netCents ?? 0)}>
              {formatSignedMoney(today?.netCents ?? 0, account.currency)}
            </Text>
          </Stat>
          <Stat label="Trading days" testId="prop-days-traded">
            {daysRule ? `${status.tradingDays} of ${daysRule.limit}` : status.tradingDays}
          </Stat>
        </SimpleGrid>
      ) : null}

      <Card withBorder radius="md" padding="md">
        <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
          <Title order={2} size="h4">
            Rules
          </Title>
          <Group gap="xs">
            {detail.rule_set && (
              <Button size="xs" variant="subtle" color="red" onClick={() => setRemoving(true)} data-testid="prop-rules-remove">
                Remove Rules
              </Button>
            )}
            <Button
              size="xs"
              variant="light"
              leftSection={detail.rule_set ? <IconPencil size={14} aria-hidden="true" /> : <IconPlus size={14} aria-hidden="true" />}
              onClick={() => setEditing(true)}
              data-testid="prop-rules-edit"
            >
              {detail.rule_set ? 'Edit Rules' : 'Set Up Rules'}
            </Button>
          </Group>
        </Group>
        {status && detail.rule_set ? (
          <Stack gap="sm">
            <RuleList accountId={account.id} currency={account.currency} status={status} today={detail.today} onOpenDay={openDay} />
            <PlanLine detail={detail} />
          </Stack>
        ) : (
          <Text size="sm" c="dimmed" data-testid="prop-no-rules">
            No rules yet. Set them up from your firm&apos;s plan (Topstep, Apex, Take Profit Trader, MyFundedFutures) or from scratch, and this page
            tracks the distance to each limit trade by trade.
          </Text>
        )}
      </Card>

      {status && detail.rule_set && status.days.length > 0 && (
        <Card withBorder radius="md" padding="md" data-testid="prop-timeline">
          <Title order={2} size="h4" mb="sm">
            Balance, Threshold and Target
          </Title>
          <StatusChart status={status} rules={detail.rule_set.rules} currency={account.currency} onOpenDay={openDay} />
        </Card>
      )}

      <LedgerCard accountId={account.id} firm={account.firm} entries={detail.ledger} summary={detail.ledger_summary} today={detail.today} />

      {editing && (
        <Suspense fallback={null}>
          <RulesEditor accountId={account.id} ruleSet={detail.rule_set} funded={account.kind === 'funded'} onClose={() => setEditing(false)} />
        </Suspense>
      )}
      <ConfirmDialog
        opened={removing}
        title="Remove Rules"
        confirmLabel="Remove"
        danger
        loading={remove.isPending}
        onCancel={() => setRemoving(false)}
        onConfirm={() => remove.mutate(undefined, { onSettled: () => setRemoving(false) })}
      >
        Remove the rules of &quot;{account.name}&quot;? Its trades and ledger stay; its status is no longer tracked.
      </ConfirmDialog>
      <DayTradesDrawer
        accountId={account.id}
        currency={account.currency}
        day={open?.day ?? null}
        highlight={open?.tradeId ?? null}
        timeZone={timeZone}
        tradingDay={preferences.data?.trading_day ?? 'exchange'}
        onClose={() => setOpen(null)}
      />
    </Stack>
  );
}
