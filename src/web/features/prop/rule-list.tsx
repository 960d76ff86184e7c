import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import { IconListDetails } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { PropStatus, RuleStatus } from '../../../domain/prop/types';
import { tradeLogLink } from './day-trades-drawer';
import { TONE_COLOR } from '../../lib/tone';
import { formatRuleFigure, RULE_LABELS, RULE_STATE, severityLabel } from './format';

/** Which trades a rule's figure comes from: one day (and the trade that broke it), or all of the account's. */
export type RuleTrades = { day: string; tradeId: string | null } | 'all' | null;

export function tradesBehind(rule: RuleStatus, status: PropStatus, today: string): RuleTrades {
  const breaches = status.breaches.filter((b) => b.rule === rule.rule);
  const last = breaches[breaches.length - 1];
  const hasDay = (day: string) => status.days.some((d) => d.day === day);
  switch (rule.rule) {
    case 'dailyLoss': {
      const breach = status.brokenBy?.rule === 'dailyLoss' ? status.brokenBy : breaches.find((b) => b.day === today);
      if (breach) return { day: breach.day, tradeId: breach.tradeId };
      return hasDay(today) ? { day: today, tradeId: null } : null;
    }
    case 'maxLoss': {
      if (last) return { day: last.day, tradeId: last.tradeId };
      const latest = status.days[status.days.length - 1];
      return latest ? { day: latest.day, tradeId: null } : null;
    }
    case 'consistency': {
      if (last) return { day: last.day, tradeId: last.tradeId };
      const best = status.days.reduce<(typeof status.days)[number] | null>((max, d) => (max === null || d.netCents > max.netCents ? d : max), null);
      return best && best.netCents > 0 ? { day: best.day, tradeId: null } : null;
    }
    case 'maxPosition':
    case 'tradingHours':
      return last ? { day: last.day, tradeId: last.tradeId } : null;
    default:
      return status.days.length > 0 ? 'all' : null;
  }
}

/** Each rule: its state, the distance left in dollars (or days, contracts, %), and the trades behind it. */
export function RuleList(props: {
  accountId: string;
  /** The account's currency, which its amounts are written in. */
  currency?: string;
  status: PropStatus;
  today: string;
  onOpenDay: (day: string, tradeId: string | null) => void;
}) {
  const { accountId, currency, status, today, onOpenDay } = props;
  if (status.rules.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        This rule set has no limits yet.
      </Text>
    );
  }
  return (
    <Stack gap="md" data-testid="prop-rules">
      {status.rules.map((rule) => {
        const state = RULE_STATE[rule.state];
        const figure = formatRuleFigure(rule, currency);
        const behind = tradesBehind(rule, status, today);
        const severity = severityLabel(rule);
        return (
          <div key={rule.rule} data-testid="prop-rule" data-rule={rule.rule} data-state={rule.state}>
            <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
              <Group gap="xs" wrap="wrap" miw={0}>
                <Text fw={600} size="sm">
                  {RULE_LABELS[rule.rule]}
                </Text>
                <Text size="xs" fw={700} c={state.text} tt="uppercase" data-testid="prop-rule-state">
                  {state.label}
                </Text>
                {severity && (
                  <Text size="xs" c={rule.severity === 'hard' ? TONE_COLOR.negative : TONE_COLOR.neutral} data-testid="prop-rule-severity">
                    {severity}
                  </Text>
                )}
              </Group>
              {figure && (
                <Text size="sm" fw={600} ff="monospace" style={{ whiteSpace: 'nowrap' }} data-testid="prop-rule-figure">
                  {figure}
                </Text>
              )}
            </Group>
            {rule.progressPct !== null && rule.state !== 'missed' && rule.state !== 'broken' && (
              <Progress
                mt={6}
                size="sm"
                value={Math.min(100, Math.max(0, rule.progressPct))}
                color={state.bar}
                aria-label={`${RULE_LABELS[rule.rule]}: ${rule.progressPct}%`}
              />
            )}
            <Group justify="space-between" wrap="wrap" gap="xs" mt={4}>
              <Text size="xs" c="dimmed">
                {rule.detail}
              </Text>
              {behind === 'all' ? (
                <Button
                  component={Link}
                  to={tradeLogLink(accountId)}
                  size="compact-xs"
                  variant="subtle"
                  leftSection={<IconListDetails size={12} aria-hidden="true" />}
                >
                  Trades
                </Button>
              ) : behind ? (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  leftSection={<IconListDetails size={12} aria-hidden="true" />}
                  onClick={() => onOpenDay(behind.day, behind.tradeId)}
                  aria-label={`Trades behind the ${RULE_LABELS[rule.rule].toLowerCase()}`}
                >
                  Trades
                </Button>
              ) : null}
            </Group>
          </div>
        );
      })}
    </Stack>
  );
}
