import { ActionIcon, Button, Group, Skeleton, Stack, Tabs, Text, Tooltip } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconListDetails, IconSparkles } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatShortDay } from '../../../domain/dates';
import { groupReflectionsByDate, stepReflectionOffset, type ReflectionPeriod } from '../../../domain/reflections';
import { PageHeader } from '../../components/page-header';
import { AI_NOT_CONFIGURED_HINT, useAppConfig } from '../../lib/app-config';
import { ApiError } from '../../lib/api';
import { toastError } from '../../lib/toast';
import { AccountSelector, useAccountChoice, useAccounts } from '../accounts';
import { AnalysisDialog, NO_TRADES_AI, NO_TRADES_SUMMARY } from './analysis-dialog';
import { reflectionsQuery, useSaveReflection, type AnalysisReport } from './api';
import { ReflectionPeriodGrid, SummaryCard } from './reflection-days';
import { SummaryDialog } from './summary-dialog';
import classes from './reflect.module.css';

const PERIODS: Array<{ value: ReflectionPeriod; label: string }> = [
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
  { value: 'month', label: 'Month' },
];

/** Reflections shown before "Show more": a month of a busy trader holds thousands of trades. */
const PAGE_SIZE = 100;

/** Trade Reflections. */
export function ReflectPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const [period, setPeriod] = useState<ReflectionPeriod>('week');
  const [offset, setOffset] = useState(0);
  // The account as the Trade Log picks it: the default account first, then the trader's pick for the session.
  const { data: accounts, isError: accountsFailed } = useAccounts();
  const [chosenAccount, setAccount] = useAccountChoice('reflect', accountsFailed ? [] : accounts);
  const account = chosenAccount ?? 'all';
  const [shown, setShown] = useState(PAGE_SIZE);
  const [summaryOpen, setSummaryOpen] = useState(false);
  const [analysisOpen, setAnalysisOpen] = useState(false);
  const [lastReport, setLastReport] = useState<AnalysisReport | null>(null);
  const { data: config } = useAppConfig();
  const aiConfigured = config?.ai?.configured ?? false;

  const query = useMemo(() => ({ period, offset, account }), [period, offset, account]);
  const {
    data: page,
    isPending,
    isError,
    isPlaceholderData,
  } = useQuery({ ...reflectionsQuery(query), placeholderData: keepPreviousData, enabled: chosenAccount !== null });
  const save = useSaveReflection(query, (error) =>
    toastError('Failed to save reflection', error instanceof ApiError ? error.message : 'Your change was undone. Please try again.'),
  );
  const onChange = useCallback((change: Parameters<typeof save.mutate>[0]) => save.mutate(change), [save]);

  const reflections = isPlaceholderData ? [] : (page?.reflections ?? []);
  const groups = useMemo(() => groupReflectionsByDate(reflections.slice(0, shown)), [reflections, shown]);
  const ready = Boolean(page) && !isPlaceholderData;

  const startAnalysis = useCallback(() => {
    if (!ready) return;
    if (reflections.length === 0) {
      toastError('No trades to analyze', NO_TRADES_AI);
      return;
    }
    setAnalysisOpen(true);
  }, [ready, reflections.length]);

  // /reflect?action=analyze (the search palette's 'AI Trade Analysis') opens the analysis once the period is loaded.
  useEffect(() => {
    if (searchParams.get('action') !== 'analyze' || !ready) return;
    setSearchParams(
      (params) => {
        params.delete('action');
        return params;
      },
      { replace: true },
    );
    startAnalysis();
  }, [searchParams, setSearchParams, ready, startAnalysis]);

  const choosePeriod = (value: string | null) => {
    if (!value) return;
    setPeriod(value as ReflectionPeriod);
    setOffset(0); // a tab resets the offset
    setShown(PAGE_SIZE);
  };
  const step = (direction: 'previous' | 'next') => {
    setOffset((o) => stepReflectionOffset(o, direction));
    setShown(PAGE_SIZE);
  };

  // The AI Insight tile shows the AI analyst's first suggestion for the period on screen, once one has run.
  const aiInsight =
    lastReport?.source === 'ai' && lastReport.period === period && lastReport.offset === offset && lastReport.account === account
      ? (lastReport.analysis.suggestions[0] ?? lastReport.analysis.summary.patterns[0] ?? null)
      : null;

  const range =
    page && !isPlaceholderData
      ? page.from === page.to
        ? formatShortDay(page.from)
        : `${formatShortDay(page.from)} – ${formatShortDay(page.to)}, ${page.to.slice(0, 4)}`
      : '';

  const body = (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="xs" wrap="nowrap">
          <ActionIcon variant="default" size="lg" onClick={() => step('previous')} aria-label="Previous period" data-testid="period-previous">
            <IconChevronLeft size={18} aria-hidden="true" />
          </ActionIcon>
          <div className={classes.periodLabel}>
            <Text fw={700} data-testid="period-label">
              {page?.label ?? ''}
            </Text>
            <Text size="xs" c="dimmed" data-testid="period-range">
              {range}
            </Text>
          </div>
          <ActionIcon
            variant="default"
            size="lg"
            onClick={() => step('next')}
            disabled={offset === 0}
            aria-label="Next period"
            data-testid="period-next"
          >
            <IconChevronRight size={18} aria-hidden="true" />
          </ActionIcon>
        </Group>
        <Group gap="xs" wrap="wrap">
          <AccountSelector value={account} onChange={setAccount} withUnassigned w={220} />
          <Button
            variant="default"
            leftSection={<IconListDetails size={16} aria-hidden="true" />}
            onClick={() => (reflections.length ? setSummaryOpen(true) : toastError('No trades to analyze', NO_TRADES_SUMMARY))}
            disabled={!ready}
          >
            Summarize
          </Button>
          <Tooltip label={AI_NOT_CONFIGURED_HINT} multiline w={320} disabled={aiConfigured} withArrow>
            <Button leftSection={<IconSparkles size={16} aria-hidden="true" />} onClick={startAnalysis} disabled={!ready} data-testid="ai-analysis">
              AI Analysis
            </Button>
          </Tooltip>
        </Group>
      </Group>

      {config && !aiConfigured && (
        <Text size="xs" c="dimmed" data-testid="ai-not-configured">
          {AI_NOT_CONFIGURED_HINT} AI Analysis gives the local analysis meanwhile.
        </Text>
      )}

      <SummaryCard page={isPlaceholderData ? undefined : page} aiInsight={aiInsight} />

      <ReflectionPeriodGrid
        error={isError}
        loading={isPending || isPlaceholderData}
        placeholder={
          <Stack gap="sm" aria-busy="true">
            <Skeleton height={110} />
            <Skeleton height={110} />
          </Stack>
        }
        empty="No trades found for this period. Add trades in the Trade Log."
        reflections={reflections}
        groups={groups}
        shown={shown}
        onShowMore={() => setShown((n) => n + PAGE_SIZE)}
        onChange={onChange}
        statistics={isPlaceholderData ? undefined : page?.statistics}
        insights={isPlaceholderData ? [] : (page?.insights ?? [])}
      />
    </Stack>
  );

  return (
    <Stack gap="md">
      <PageHeader title="Trade Reflections" />
      <Tabs value={period} onChange={choosePeriod} keepMounted={false}>
        <Tabs.List mb="md">
          {PERIODS.map((p) => (
            <Tabs.Tab key={p.value} value={p.value}>
              {p.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {PERIODS.map((p) => (
          <Tabs.Panel key={p.value} value={p.value}>
            {p.value === period && body}
          </Tabs.Panel>
        ))}
      </Tabs>
      <SummaryDialog opened={summaryOpen} onClose={() => setSummaryOpen(false)} query={query} />
      <AnalysisDialog
        opened={analysisOpen}
        onClose={() => setAnalysisOpen(false)}
        query={query}
        periodLabel={page?.label ?? ''}
        onReport={setLastReport}
      />
    </Stack>
  );
}
