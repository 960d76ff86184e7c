import { ActionIcon, Badge, Card, Grid, Group, Loader, ScrollArea, SegmentedControl, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import type { JournalDays } from '../../../contract/journal';
import type { MentorAccount } from '../../../contract/mentors';
import { mentorImageUrl } from '../../../domain/files/mentor-image-url';
import { selectJournalDate } from '../../../domain/notes';
import { ACCOUNT_KIND_LABELS } from '../../../domain/prop/labels';
import { groupReflectionsByDate, stepReflectionOffset, type ReflectionPeriod } from '../../../domain/reflections';
import { MarkdownView } from '../../components/markdown-view';
import { MoneyText } from '../../components/money-text';
import { PnlValue } from '../../components/pnl-value';
import { pnlColor } from '../../lib/tone';
import { DayRow, DayTrades } from '../journal/day-parts';
import {
  ACCOUNT_STATE,
  formatMoney,
  formatRuleFigure,
  formatSignedMoney,
  OUTCOME_LABEL,
  RULE_LABELS,
  RULE_STATE,
  severityLabel,
} from '../prop/format';
import { ReflectionPeriodGrid, SummaryCard } from '../reflect/reflection-days';
import { mentorJournalDayQuery, mentorPropQuery, mentorReflectQuery } from './api';

/**
 * The trader's Reflect, daily journal and prop status as their mentor reads them: the trader's own screens' pieces
 * over the granted accounts, with nothing to change.
 */

const PERIODS: Array<{ value: ReflectionPeriod; label: string }> = [
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
  { value: 'month', label: 'Month' },
];

/** Reflections shown before "Show more", as on the trader's page. */
const PAGE_SIZE = 100;

/** Reflect, read only: a period of the granted accounts (all, or one), its trades by day and its figures. */
export function MentorReflect({ traderId, accounts }: { traderId: string; accounts: readonly MentorAccount[] }) {
  const [period, setPeriod] = useState<ReflectionPeriod>('week');
  const [offset, setOffset] = useState(0);
  const [account, setAccount] = useState('all');
  const [shown, setShown] = useState(PAGE_SIZE);
  const query = useQuery({ ...mentorReflectQuery(traderId, period, offset, account), placeholderData: keepPreviousData });
  const page = query.isPlaceholderData ? undefined : query.data;
  const reflections = useMemo(() => page?.reflections ?? [], [page]);
  const groups = useMemo(() => groupReflectionsByDate(reflections.slice(0, shown)), [reflections, shown]);
  const step = (direction: 'previous' | 'next') => {
    setOffset((o) => stepReflectionOffset(o, direction));
    setShown(PAGE_SIZE);
  };
  return (
    <Stack gap="md" data-testid="mentor-reflect">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <SegmentedControl
          value={period}
          onChange={(value) => {
            setPeriod(value as ReflectionPeriod);
            setOffset(0);
            setShown(PAGE_SIZE);
          }}
          data={PERIODS}
          aria-label="Period"
        />
        <Group gap="xs" wrap="nowrap">
          <ActionIcon variant="default" size="lg" onClick={() => step('previous')} aria-label="Previous period">
            <IconChevronLeft size={18} aria-hidden="true" />
          </ActionIcon>
          <Text fw={700} miw={120} ta="center" data-testid="period-label">
            {page?.label ?? ''}
          </Text>
          <ActionIcon variant="default" size="lg" onClick={() => step('next')} disabled={offset === 0} aria-label="Next period">
            <IconChevronRight size={18} aria-hidden="true" />
          </ActionIcon>
        </Group>
        <Select
          aria-label="Account"
          w={220}
          allowDeselect={false}
          value={account}
          onChange={(value) => {
            setAccount(value ?? 'all');
            setShown(PAGE_SIZE);
          }}
          data={[{ value: 'all', label: 'All shared accounts' }, ...accounts.map((a) => ({ value: a.id, label: a.name }))]}
        />
      </Group>
      <SummaryCard page={page} aiInsight={null} />
      <ReflectionPeriodGrid
        error={query.isError}
        loading={!page}
        placeholder={<Loader role="status" aria-label="Loading reflections" />}
        empty="No trades found for this period."
        reflections={reflections}
        groups={groups}
        shown={shown}
        onShowMore={() => setShown((n) => n + PAGE_SIZE)}
        statistics={page?.statistics}
        insights={page?.insights ?? []}
      />
    </Stack>
  );
}

/** The daily journal, read only: the days (every note, the granted accounts' trades) and the chosen day. */
export function MentorJournal({ traderId, days }: { traderId: string; days: JournalDays }) {
  const [chosen, setChosen] = useState<string | null>(null);
  const selected = selectJournalDate(days.days, chosen);
  return (
    <Grid gap="md" data-testid="mentor-journal">
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Card withBorder radius="md" padding="sm">
          <Title order={2} size="h5" mb="xs">
            Trading days
          </Title>
          {days.days.length === 0 ? (
            <Text size="sm" c="dimmed">
              No trading days yet.
            </Text>
          ) : (
            <ScrollArea.Autosize mah={{ base: 320, sm: 'calc(100dvh - 300px)' }} type="auto" scrollbars="y" offsetScrollbars="y">
              <Stack gap={2}>
                {days.days.map((day) => (
                  <DayRow key={day.date} day={day} selected={day.date === selected} onSelect={() => setChosen(day.date)} />
                ))}
              </Stack>
            </ScrollArea.Autosize>
          )}
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }}>{selected && <MentorJournalDay key={selected} traderId={traderId} date={selected} />}</Grid.Col>
    </Grid>
  );
}

function MentorJournalDay({ traderId, date }: { traderId: string; date: string }) {
  const day = useQuery(mentorJournalDayQuery(traderId, 'all', date));
  // The note's uploaded images are the trader's addresses: the mentor opens them through the mentor's route.
  const imageSrc = useCallback((src: string) => mentorImageUrl(traderId, src), [traderId]);
  return (
    <Card withBorder radius="md" padding="md" data-testid="mentor-journal-day">
      {day.isPending ? (
        <Loader size="sm" role="status" aria-label="Loading the day" />
      ) : day.isError ? (
        <Text size="sm" c="var(--mantine-color-error)">
          {day.error.message}
        </Text>
      ) : (
        <Stack gap="sm">
          <Text size="sm">
            Day P&L: <PnlValue value={day.data.pnl} span size="sm" />
          </Text>
          {day.data.trades.length > 0 ? (
            <DayTrades date={date} trades={day.data.trades} withAccount linked={false} />
          ) : (
            <Text size="sm" c="dimmed">
              No trades on this day.
            </Text>
          )}
          <Title order={3} size="h6">
            Journal
          </Title>
          {day.data.note?.content ? (
            <MarkdownView testId="mentor-journal-note" imageSrc={imageSrc}>
              {day.data.note.content}
            </MarkdownView>
          ) : (
            <Text size="sm" c="dimmed">
              Not written yet
            </Text>
          )}
        </Stack>
      )}
    </Card>
  );
}

/** Where each granted account with prop rules stands today, rule by rule. */
export function MentorProp({ traderId }: { traderId: string }) {
  const status = useQuery(mentorPropQuery(traderId));
  if (status.isPending) return <Loader role="status" aria-label="Loading prop accounts" />;
  if (status.isError) return <Text c="var(--mantine-color-error)">Failed to load the prop accounts</Text>;
  if (status.data.accounts.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="mentor-prop-empty">
        No shared account has prop rules.
      </Text>
    );
  }
  return (
    <Stack gap="md" data-testid="mentor-prop">
      {status.data.accounts.map((a) => {
        const state = ACCOUNT_STATE[a.state];
        return (
          <Card key={a.account.id} withBorder radius="md" padding="md" data-testid="mentor-prop-account">
            <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
              <Stack gap={4}>
                <Title order={2} size="h4">
                  {a.account.name}
                </Title>
                <Group gap="xs">
                  <Badge variant="light" color="blue" tt="none">
                    {ACCOUNT_KIND_LABELS[a.account.kind]}
                  </Badge>
                  {a.account.firm && (
                    <Badge variant="outline" color="gray" tt="none">
                      {a.account.firm}
                    </Badge>
                  )}
                  <Badge color={state.color} autoContrast variant="filled" tt="none">
                    {state.label}
                  </Badge>
                  {a.outcome !== 'active' && (
                    <Text size="sm" fw={600}>
                      {OUTCOME_LABEL[a.outcome]}
                    </Text>
                  )}
                </Group>
              </Stack>
              <Stack gap={0} align="flex-end">
                <Text fw={700} ff="monospace" data-money>
                  {formatMoney(a.balance_cents, a.account.currency)}
                </Text>
                <Text size="sm" ff="monospace" c={pnlColor(a.profit_cents)} data-money>
                  {formatSignedMoney(a.profit_cents, a.account.currency)}
                </Text>
              </Stack>
            </Group>
            <Text size="sm" c={state.text} mt="xs">
              <MoneyText>{a.headline}</MoneyText>
            </Text>
            {a.rules.length > 0 && (
              <Table.ScrollContainer minWidth={420} mt="xs">
                <Table verticalSpacing={4} fz="sm">
                  <Table.Tbody>
                    {a.rules.map((rule) => (
                      <Table.Tr key={rule.rule}>
                        <Table.Td>{RULE_LABELS[rule.rule]}</Table.Td>
                        <Table.Td c={RULE_STATE[rule.state].text}>{RULE_STATE[rule.state].label}</Table.Td>
                        <Table.Td>{formatRuleFigure(rule, a.account.currency) ?? ''}</Table.Td>
                        <Table.Td c="dimmed">{severityLabel(rule) ?? ''}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Card>
        );
      })}
      <Text size="xs" c="dimmed">
        Realized P&amp;L of closed trades, net of fees. The firm&apos;s terms are authoritative.
      </Text>
    </Stack>
  );
}
