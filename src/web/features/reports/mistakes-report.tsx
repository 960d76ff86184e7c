import { Anchor, MultiSelect, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { MistakesReport } from '../../../contract/reports';
import type { MistakeTags } from '../../../contract/risk';
import type { ReportFilter } from '../../../domain/reports/filter';
import { formatUsd } from '../../../domain/money';
import { formatR } from '../../../domain/risk/format-r';
import { apiFetch } from '../../lib/api';
import { pnlColor } from '../../lib/tone';
import { mistakeTagsQuery, mistakesQuery, reportOptionsQuery } from './api';
import { useReportsSource } from './reports-source';
import { queryKeys } from '../../shared/api';
import { NoTrades, ReportCard, ReportError, ReportLoading } from './report-card';
import classes from './reports.module.css';

/**
 * Mistakes: the tags the trader marks as mistakes, each one's trades and net P&L in the filter's
 * trades, and the net P&L without the trades that carry one.
 */
export function MistakesReportView({ filter }: { filter: ReportFilter }) {
  const client = useQueryClient();
  const { base, readOnly } = useReportsSource();
  const query = useQuery(mistakesQuery(filter, base));
  // Which tags are mistakes is the trader's setting: a mentor's page neither reads the signed-in user's nor changes it.
  const marked = useQuery({ ...mistakeTagsQuery, enabled: !readOnly });
  const options = useQuery({ ...reportOptionsQuery(base), enabled: !readOnly });
  const save = useMutation({
    mutationFn: (tags: string[]) => apiFetch<MistakeTags>('/api/mistake-tags', { method: 'PUT', body: JSON.stringify({ tags }) }),
    onSuccess: async (saved) => {
      client.setQueryData(mistakeTagsQuery.queryKey, saved);
      // The reports, and the Trade Log's list and statistics under a mistake filter, read the list: all under ['trades'].
      await client.invalidateQueries({ queryKey: queryKeys.trades.all });
    },
  });
  const tags = marked.data?.tags ?? [];
  const choices = [...new Set([...(options.data?.tag ?? []), ...tags])];

  return (
    <ReportCard
      title="Mistakes"
      description={query.data?.basis.computedFrom}
      busy={query.isPlaceholderData || save.isPending}
      testId="report-mistakes"
    >
      <Stack gap="md">
        {!readOnly && (
          <MultiSelect
            label="Tags that are mistakes"
            description="Mark the tags you put on trades you should not have taken or managed as planned (FOMO, moved stop, oversized)."
            data={choices}
            value={tags}
            onChange={(next) => save.mutate(next)}
            searchable
            clearable
            disabled={marked.isLoading}
            error={save.isError ? (save.error instanceof Error ? save.error.message : 'Could not save') : undefined}
            data-testid="mistake-tags"
          />
        )}
        {query.isError ? (
          <ReportError error={query.error} />
        ) : !query.data ? (
          <ReportLoading height={160} />
        ) : query.data.basis.trades === 0 ? (
          <NoTrades />
        ) : tags.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="mistakes-none">
            No tag is marked as a mistake yet.
          </Text>
        ) : (
          <MistakesTable report={query.data.mistakes} filter={filter} />
        )}
      </Stack>
    </ReportCard>
  );
}

function MistakesTable({ report, filter }: { report: MistakesReport['mistakes']; filter: ReportFilter }) {
  const { tradeLogHref } = useReportsSource();
  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={320}>
        <Table verticalSpacing="xs" data-testid="mistakes-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Mistake</Table.Th>
              <Table.Th ta="right">Trades</Table.Th>
              <Table.Th ta="right">Net P&L</Table.Th>
              <Table.Th ta="right">R</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.mistakes.map((row) => (
              <Table.Tr key={row.tag} data-testid="mistake-row">
                <Table.Td>
                  {tradeLogHref ? (
                    <Anchor component={Link} to={tradeLogHref({ ...filter, mistake: [row.tag] })}>
                      {row.tag}
                    </Anchor>
                  ) : (
                    row.tag
                  )}
                </Table.Td>
                <Table.Td ta="right" className={classes.numeric}>
                  {row.trades}
                </Table.Td>
                <Table.Td ta="right" className={classes.numeric} c={pnlColor(row.netCents)} data-testid="mistake-net">
                  {formatUsd(row.netCents)}
                </Table.Td>
                <Table.Td
                  ta="right"
                  className={classes.numeric}
                  title={row.tradesWithoutRisk > 0 ? `${row.tradesWithoutRisk} without a planned risk` : undefined}
                >
                  {row.totalR === null ? '—' : formatR(row.totalR)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="sm" data-testid="mistakes-summary">
        Net P&L {formatUsd(report.netCents)} over all {report.tradesWithMistakes + report.tradesWithoutMistakes} trades;{' '}
        <Text span fw={700} c={pnlColor(report.netWithoutMistakesCents)}>
          {formatUsd(report.netWithoutMistakesCents)}
        </Text>{' '}
        without the {report.tradesWithMistakes} trade{report.tradesWithMistakes === 1 ? '' : 's'} tagged with a mistake.
      </Text>
    </Stack>
  );
}
