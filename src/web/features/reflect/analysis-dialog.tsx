import { Alert, Badge, Button, Group, List, Menu, Modal, Progress, SimpleGrid, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconDownload, IconFileText, IconJson } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { formatUsd } from '../../../domain/money';
import type { ReflectionRStatistics } from '../../../domain/reflections';
import type { RSummary } from '../../../domain/risk/r-summary';
import { describeWithoutRisk, formatR } from '../../../domain/risk/format-r';
import { FigureUnitSwitch, useFigureUnit } from '../../shared/figure-unit';
import { pnlColor } from '../../lib/tone';
import { analysisExportFileName, formatAnalysisAsText, type GroupFigures } from '../../../domain/reflections';
import { formatWinRate } from '../../../domain/stats';
import { streamAnalysis, type AnalysisReport, type PeriodQuery } from './api';
import { winRateColor } from './side-panel';
import { saveBlob } from '../../lib/download';
import { PlaybooksTable } from '../playbooks/playbook-figures';
import { toastError, toastInfo } from '../../lib/toast';

type State = { kind: 'idle' } | { kind: 'running'; stage: string; percent: number } | { kind: 'done'; report: AnalysisReport } | { kind: 'failed' };

const ANALYSIS_ERROR = 'There was a problem analyzing your trades. Please try again later.';
export const NO_TRADES_AI = 'Add some trades first to use the AI analysis feature.';
export const NO_TRADES_SUMMARY = 'Add some trades first to use the summarize feature.';

/**
 * Runs one analysis while the dialog is open. Closing the dialog while it runs aborts the request, which the server
 * passes on to the AI provider (closing the dialog while it loads cancels it).
 */
function useAnalysisRun(opened: boolean, query: PeriodQuery, onReport?: (report: AnalysisReport) => void) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);
  const onReportRef = useRef(onReport);
  onReportRef.current = onReport;
  const { period, offset, account } = query;

  useEffect(() => {
    if (!opened) return;
    const abort = new AbortController();
    controller.current = abort;
    setState({ kind: 'running', stage: 'Starting the analysis', percent: 2 });
    void (async () => {
      try {
        for await (const event of streamAnalysis({ period, offset, account }, abort.signal)) {
          if (event.type === 'progress') setState({ kind: 'running', stage: event.stage, percent: event.percent });
          else if (event.type === 'result') {
            setState({ kind: 'done', report: event.report });
            onReportRef.current?.(event.report);
            // 'Connection Error' when the AI server failed and the local analysis stands in.
            if (event.report.notice?.title === 'Connection Error') toastError('Connection Error', event.report.notice.message);
            return;
          } else if (event.type === 'error') {
            setState({ kind: 'failed' });
            if (event.status === 400 && event.message === 'No trades to analyze') toastError('No trades to analyze', NO_TRADES_AI);
            else toastError('Analysis Error', ANALYSIS_ERROR);
            return;
          }
        }
        if (!abort.signal.aborted) throw new Error('the analysis ended without a result');
      } catch {
        if (abort.signal.aborted) return;
        setState({ kind: 'failed' });
        toastError('Analysis Error', ANALYSIS_ERROR);
      }
    })();
    return () => {
      abort.abort();
      controller.current = null;
    };
  }, [opened, period, offset, account]);

  const cancel = useCallback(() => {
    const running = controller.current;
    if (running && !running.signal.aborted) {
      running.abort();
      return true;
    }
    return false;
  }, []);

  return { state, cancel };
}

const download = (name: string, type: string, content: string) => saveBlob(new Blob([content], { type }), name);

function exportReport(report: AnalysisReport | undefined, format: 'json' | 'txt') {
  if (!report) {
    toastError('Export Error', 'No analysis data available to export');
    return;
  }
  try {
    const name = analysisExportFileName(report.period, report.from, format);
    if (format === 'json') download(name, 'application/json', JSON.stringify(report, null, 2));
    else {
      download(
        name,
        'text/plain',
        formatAnalysisAsText({
          title: `Edgebook trade analysis: ${report.accountName}`,
          label: report.label,
          from: report.from,
          to: report.to,
          source: report.source,
          analysis: report.analysis,
          totals: report.totals,
          comparison: report.comparison,
          playbooks: report.playbooks,
        }),
      );
    }
  } catch {
    toastError('Export Failed', 'Failed to export analysis. Please try again.');
  }
}

function Items({ items, empty, testId }: { items: readonly string[]; empty: string; testId: string }) {
  if (items.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  return (
    <List size="sm" spacing={4} data-testid={testId}>
      {items.map((item, i) => (
        <List.Item key={i}>{item}</List.Item>
      ))}
    </List>
  );
}

type FiguresRow = Pick<GroupFigures, 'totalTrades' | 'wins' | 'losses' | 'winRate' | 'pnlCents'> & { name: string };

const rText = (r: number | null | undefined) => (r === null || r === undefined ? '—' : formatR(r));
const rTone = (r: number | null | undefined) => (r === null || r === undefined ? undefined : pnlColor(r > 0 ? 1 : r < 0 ? -1 : 0));

/** `inR`: the rows' R by name, shown instead of their net P&L. */
function FiguresTable({ caption, rows, inR }: { caption: string; rows: FiguresRow[]; inR?: ReadonlyMap<string, RSummary> }) {
  const withoutRisk = inR ? rows.reduce((n, r) => n + (inR.get(r.name)?.tradesWithoutRisk ?? 0), 0) : 0;
  return (
    <div>
      <Title order={4} size="h6" mb={4}>
        {caption}
      </Title>
      <Table.ScrollContainer minWidth={300}>
        <Table fz="sm" verticalSpacing={4} striped data-testid={`figures-${caption.toLowerCase().replace(/\s+/g, '-')}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{caption.replace(/^By /, '')}</Table.Th>
              <Table.Th ta="right">Trades</Table.Th>
              <Table.Th ta="right">Win rate</Table.Th>
              {/* In R, one column holds the total and the expectancy under it: a phone keeps four columns. */}
              {inR ? <Table.Th ta="right">Total R</Table.Th> : <Table.Th ta="right">Net P&amp;L</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => {
              const inRRow = inR?.get(r.name);
              return (
                <Table.Tr key={r.name}>
                  <Table.Td>{r.name}</Table.Td>
                  <Table.Td ta="right">{r.totalTrades}</Table.Td>
                  <Table.Td ta="right" c={r.wins + r.losses > 0 ? winRateColor(r.winRate) : undefined}>
                    {formatWinRate(r.winRate, r.wins + r.losses)}
                  </Table.Td>
                  {inR ? (
                    <Table.Td
                      ta="right"
                      title={inRRow?.tradesWithoutRisk ? describeWithoutRisk(inRRow.tradesWithoutRisk) : undefined}
                      data-testid="figures-r"
                    >
                      <Text span fz="sm" fw={600} c={rTone(inRRow?.totalR)}>
                        {rText(inRRow?.totalR)}
                      </Text>
                      {inRRow?.expectancyR !== null && inRRow?.expectancyR !== undefined && (
                        <Text fz="xs" c="dimmed">
                          {formatR(inRRow.expectancyR)} a trade
                        </Text>
                      )}
                    </Table.Td>
                  ) : (
                    <Table.Td ta="right" c={pnlColor(r.pnlCents)}>
                      {formatUsd(r.pnlCents)}
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {withoutRisk > 0 && (
        <Text size="xs" c="dimmed" mt={2}>
          {describeWithoutRisk(withoutRisk)}, left out of the R columns.
        </Text>
      )}
    </div>
  );
}

/** `inR`: the same trades in R, shown instead of their net P&L. */
function AdherenceBox({ label, figures, inR, testId }: { label: string; figures: GroupFigures; inR?: RSummary; testId: string }) {
  return (
    <Stack gap={2} p="sm" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }} data-testid={testId}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      {figures.totalTrades === 0 ? (
        <Text size="sm" c="dimmed">
          No trades
        </Text>
      ) : (
        <>
          <Text size="sm">
            {figures.totalTrades} trade{figures.totalTrades === 1 ? '' : 's'}
          </Text>
          <Text size="sm">
            Win rate{' '}
            <Text span fw={700} c={figures.wins + figures.losses > 0 ? winRateColor(figures.winRate) : undefined}>
              {formatWinRate(figures.winRate, figures.wins + figures.losses)}
            </Text>
          </Text>
          {inR ? (
            <>
              <Text size="sm" data-testid={`${testId}-r`}>
                Total{' '}
                <Text span fw={700} c={rTone(inR.totalR)}>
                  {rText(inR.totalR)}
                </Text>
                {inR.expectancyR !== null && (
                  <Text span c="dimmed">
                    {' '}
                    ({formatR(inR.expectancyR)} a trade)
                  </Text>
                )}
              </Text>
              {inR.tradesWithoutRisk > 0 && (
                <Text size="xs" c="dimmed">
                  {describeWithoutRisk(inR.tradesWithoutRisk)}
                </Text>
              )}
            </>
          ) : (
            <Text size="sm">
              Net P&amp;L{' '}
              <Text span fw={700} c={pnlColor(figures.pnlCents)}>
                {formatUsd(figures.pnlCents)}
              </Text>
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}

/** The R tables by their rows' names, as the dollar tables name them. */
function byName<T extends RSummary>(rows: readonly T[], name: (row: T) => string): Map<string, RSummary> {
  return new Map(rows.map((row) => [name(row), row]));
}

/** The analysis's figures in R: expectancy, average win and loss, of the trades with a planned risk. */
function RTotals({ r }: { r: ReflectionRStatistics['totals'] }) {
  const figures = [
    { key: 'expectancy', label: 'Expectancy', value: r.expectancyR },
    { key: 'average-win', label: 'Average win', value: r.averageWinR },
    { key: 'average-loss', label: 'Average loss', value: r.averageLossR },
  ];
  return (
    <div data-testid="analysis-r-totals">
      <SimpleGrid cols={3} spacing="xs">
        {figures.map((f) => (
          <div key={f.key}>
            <Text size="xs" c="dimmed" fw={600} tt="uppercase">
              {f.label}
            </Text>
            <Text fw={700} c={rTone(f.value)} data-testid={`analysis-r-${f.key}`}>
              {rText(f.value)}
            </Text>
          </div>
        ))}
      </SimpleGrid>
      {r.tradesWithoutRisk > 0 && (
        <Text size="xs" c="dimmed" mt={4} data-testid="analysis-r-without-risk">
          {describeWithoutRisk(r.tradesWithoutRisk)}: {r.tradesWithoutRisk === 1 ? 'it is' : 'they are'} left out of the R figures.
        </Text>
      )}
    </div>
  );
}

function Report({ report }: { report: AnalysisReport }) {
  const { analysis, totals, adherence, comparison } = report;
  const [unit] = useFigureUnit();
  const inR = unit === 'r';
  return (
    <Stack gap="md">
      <Group justify="flex-end">
        <FigureUnitSwitch />
      </Group>
      {report.notice && (
        <Alert
          color={report.notice.title === 'Connection Error' ? 'orange' : 'blue'}
          title={report.notice.title}
          icon={<IconAlertTriangle aria-hidden="true" />}
          data-testid="analysis-notice"
        >
          <Text size="sm">{report.notice.message}</Text>
          {report.notice.detail && (
            <Text size="sm" mt={4}>
              {report.notice.detail}
            </Text>
          )}
        </Alert>
      )}
      {report.unverifiedFigures.length > 0 && (
        <Alert
          color="yellow"
          title="Figures Edgebook did not compute"
          icon={<IconAlertTriangle aria-hidden="true" />}
          data-testid="analysis-unverified"
        >
          <Text size="sm">
            The AI wrote {report.unverifiedFigures.join(', ')}, which are not among the figures Edgebook gave it. Trust the Statistics tab: every
            number there is computed from your trades.
          </Text>
        </Alert>
      )}
      <Tabs defaultValue="summary" keepMounted={false}>
        <Tabs.List grow>
          <Tabs.Tab value="summary">Summary</Tabs.Tab>
          <Tabs.Tab value="insights">Insights</Tabs.Tab>
          <Tabs.Tab value="statistics">Statistics</Tabs.Tab>
          <Tabs.Tab value="action-plan">Action Plan</Tabs.Tab>
        </Tabs.List>

        <Tabs.Panel value="summary" pt="md">
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
              <div>
                <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                  Total Trades
                </Text>
                <Text fz="xl" fw={700} data-testid="analysis-total-trades">
                  {analysis.summary.totalTrades}
                </Text>
              </div>
              <div>
                <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                  Win Rate
                </Text>
                <Text
                  fz="xl"
                  fw={700}
                  c={totals.wins + totals.losses > 0 ? winRateColor(analysis.summary.winRate) : undefined}
                  data-testid="analysis-win-rate"
                >
                  {formatWinRate(analysis.summary.winRate, totals.wins + totals.losses)}
                </Text>
              </div>
              <div>
                <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                  Net P&amp;L
                </Text>
                {inR ? (
                  <Text fz="xl" fw={700} c={rTone(report.r.totals.totalR)} data-testid="analysis-net-pnl">
                    {rText(report.r.totals.totalR)}
                  </Text>
                ) : (
                  <Text fz="xl" fw={700} c={pnlColor(totals.pnlCents)} data-testid="analysis-net-pnl">
                    {formatUsd(totals.pnlCents)}
                  </Text>
                )}
              </div>
            </SimpleGrid>
            {inR && <RTotals r={report.r.totals} />}
            <div>
              <Title order={3} size="h6" mb={4}>
                Patterns
              </Title>
              <Items items={analysis.summary.patterns} empty="No patterns found." testId="analysis-patterns" />
            </div>
            {comparison && (
              <div>
                <Title order={3} size="h6" mb={4}>
                  Against your previous four {comparison.unit}s
                </Title>
                <Text size="sm" data-testid="analysis-comparison">
                  {inR && report.r.comparison ? report.r.comparison.text : comparison.text}
                </Text>
              </div>
            )}
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="insights" pt="md">
          <Stack gap="md">
            <div>
              <Title order={3} size="h6" mb={4}>
                Strengths
              </Title>
              <Items items={analysis.strengths} empty="No clear strength in this period's figures." testId="analysis-strengths" />
            </div>
            <div>
              <Title order={3} size="h6" mb={4}>
                Weaknesses
              </Title>
              <Items items={analysis.weaknesses} empty="No clear weakness in this period's figures." testId="analysis-weaknesses" />
            </div>
            <div>
              <Title order={3} size="h6" mb={4}>
                Suggestions
              </Title>
              <Items items={analysis.suggestions} empty="No suggestions." testId="analysis-suggestions" />
            </div>
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="statistics" pt="md">
          <Stack gap="md">
            <div>
              <Title order={3} size="h6" mb={4}>
                Rule adherence
              </Title>
              <Text size="sm" c="dimmed" mb="xs">
                {adherence.adherenceRate === null
                  ? `No trade rated yet (${adherence.unrated} unrated). Mark trades as following your rules or not to compare them.`
                  : `Rules followed on ${adherence.adherenceRate.toFixed(1)}% of rated trades (${adherence.followed} of ${adherence.rated}; ${adherence.unrated} unrated).`}
              </Text>
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
                <AdherenceBox
                  label="Rules followed"
                  figures={adherence.whenFollowed}
                  inR={inR ? report.r.adherence.whenFollowed : undefined}
                  testId="adherence-followed"
                />
                <AdherenceBox
                  label="Rules not followed"
                  figures={adherence.whenNotFollowed}
                  inR={inR ? report.r.adherence.whenNotFollowed : undefined}
                  testId="adherence-not-followed"
                />
              </SimpleGrid>
            </div>
            <div data-testid="analysis-playbooks">
              <Title order={3} size="h6" mb={4}>
                By Playbook
              </Title>
              {report.playbooks.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No trade of this period has a playbook.
                </Text>
              ) : (
                <PlaybooksTable report={report} />
              )}
            </div>
            <FiguresTable
              caption="By Time of Day"
              rows={analysis.statistics.byTimeOfDay.map((r) => ({ name: r.session, ...r }))}
              inR={inR ? byName(report.r.byTimeOfDay, (r) => r.session) : undefined}
            />
            <FiguresTable
              caption="By Setup"
              rows={analysis.statistics.bySetupType.map((r) => ({ name: r.setup, ...r }))}
              inR={inR ? byName(report.r.bySetupType, (r) => r.setup) : undefined}
            />
            <FiguresTable
              caption="By Day of Week"
              rows={analysis.statistics.byMarketCondition.map((r) => ({ name: r.day, ...r }))}
              inR={inR ? byName(report.r.byMarketCondition, (r) => r.day) : undefined}
            />
            {comparison && (
              <FiguresTable
                caption={`Previous ${comparison.unit}s`}
                rows={comparison.previous.map((p) => ({ name: `${p.from} to ${p.to}`, ...p }))}
                inR={inR && report.r.comparison ? byName(report.r.comparison.previous, (p) => `${p.from} to ${p.to}`) : undefined}
              />
            )}
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="action-plan" pt="md">
          {analysis.actionPlan.length === 0 ? (
            <Text size="sm" c="dimmed">
              No action plan.
            </Text>
          ) : (
            <List type="ordered" size="sm" spacing={6} data-testid="analysis-action-plan">
              {analysis.actionPlan.map((step, i) => (
                <List.Item key={i}>{step}</List.Item>
              ))}
            </List>
          )}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

export interface AnalysisDialogProps {
  opened: boolean;
  onClose: () => void;
  query: PeriodQuery;
  periodLabel: string;
  /** Called with each finished report (the page shows the AI's first suggestion as its AI Insight). */
  onReport?: (report: AnalysisReport) => void;
}

/** The AI Analysis dialog (tabs Summary, Insights, Statistics, Action Plan, export). */
export function AnalysisDialog({ opened, onClose, query, periodLabel, onReport }: AnalysisDialogProps) {
  const { state, cancel } = useAnalysisRun(opened, query, onReport);
  const phone = useMediaQuery('(max-width: 48em)');
  const report = state.kind === 'done' ? state.report : undefined;

  const close = () => {
    if (cancel()) toastInfo('Analysis Cancelled');
    onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      size="xl"
      fullScreen={phone}
      title={
        <Group gap="xs">
          <Text fw={700}>AI Trade Analysis</Text>
          <Text c="dimmed">· {report ? `${report.label} (${report.from} to ${report.to})` : periodLabel}</Text>
          {report && (
            <Badge variant="light" color={report.source === 'ai' ? 'indigo' : 'gray'} data-testid="analysis-source">
              {report.source === 'ai' ? `AI analyst${report.model ? ` · ${report.model}` : ''}` : 'Local analysis'}
            </Badge>
          )}
        </Group>
      }
      data-testid="analysis-dialog"
    >
      {state.kind === 'running' && (
        <Stack gap="sm" py="md" data-testid="analysis-progress">
          <Text size="sm">{state.stage}…</Text>
          <Progress value={state.percent} animated aria-label="Analysis progress" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
          </Group>
        </Stack>
      )}
      {state.kind === 'failed' && (
        <Text size="sm" c="red" py="md">
          {ANALYSIS_ERROR}
        </Text>
      )}
      {report && (
        <Stack gap="md">
          <Report report={report} />
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              {report.accountName} · figures computed by Edgebook from your trades
            </Text>
            <Menu position="top-end" withinPortal>
              <Menu.Target>
                <Button leftSection={<IconDownload size={16} aria-hidden="true" />} variant="light" data-testid="analysis-export">
                  Export
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item leftSection={<IconJson size={16} aria-hidden="true" />} onClick={() => exportReport(report, 'json')}>
                  Export as JSON
                </Menu.Item>
                <Menu.Item leftSection={<IconFileText size={16} aria-hidden="true" />} onClick={() => exportReport(report, 'txt')}>
                  Export as text
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
