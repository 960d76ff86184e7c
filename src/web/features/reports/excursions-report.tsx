import { Anchor, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ReportFilter } from '../../../domain/reports/filter';
import type { ExcursionsReport as ExcursionsAnswer } from '../../../contract/reports';
import { excursionsQuery } from './api';
import { Money, NoTrades, ReportCard, ReportError, ReportLoading } from './report-card';
import classes from './reports.module.css';
import { useReportsSource } from './reports-source';

type Group = ExcursionsAnswer['excursions']['all'];

const share = (percent: number | null) => (percent === null ? '—' : `${percent.toFixed(1)}%`);

/**
 * MAE and MFE: the averages of the trades the filter picks that were measured from price bars, for
 * winners and losers apart, and the share of the best exit they captured. Trades without bars are counted, never
 * estimated.
 */
export function ExcursionsReport({ filter }: { filter: ReportFilter }) {
  const { base, readOnly } = useReportsSource();
  const query = useQuery(excursionsQuery(filter, base));
  const data = query.data;
  const rows: Array<[string, Group, string]> = data
    ? [
        ['Winners', data.excursions.winners, 'winners'],
        ['Losers', data.excursions.losers, 'losers'],
        ['All measured', data.excursions.all, 'all'],
      ]
    : [];

  return (
    <ReportCard
      title="MAE and MFE"
      description={
        data ? `Maximum adverse and favourable excursion from stored price bars, averaged per trade. ${data.basis.computedFrom}` : undefined
      }
      busy={query.isPlaceholderData}
      testId="report-excursions"
    >
      {query.isPending ? (
        <ReportLoading height={160} />
      ) : query.isError ? (
        <ReportError error={query.error} />
      ) : data!.basis.trades === 0 ? (
        <NoTrades />
      ) : (
        <>
          {/* Scrolls sideways on a phone; focusable so that a keyboard can scroll it too. */}
          <div style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label="MAE and MFE by result">
            <Table withTableBorder striped fz="sm" miw={420} className={classes.numeric} data-testid="excursions-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Result</Table.Th>
                  <Table.Th ta="right">Measured</Table.Th>
                  <Table.Th ta="right">Avg MAE</Table.Th>
                  <Table.Th ta="right">Avg MFE</Table.Th>
                  <Table.Th ta="right">Captured</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map(([label, group, id]) => (
                  <Table.Tr key={id} data-testid={`excursions-${id}`}>
                    <Table.Td>{label}</Table.Td>
                    <Table.Td ta="right">{group.trades.toLocaleString('en-US')}</Table.Td>
                    <Table.Td ta="right">
                      <Money cents={group.averageMaeCents === null ? null : -group.averageMaeCents} fw={400} />
                    </Table.Td>
                    <Table.Td ta="right">
                      <Money cents={group.averageMfeCents} fw={400} />
                    </Table.Td>
                    <Table.Td ta="right">{share(group.averageCapturePercent)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
          <Text size="xs" c="dimmed" mt="xs" data-testid="excursions-unmeasured">
            {data!.excursions.unmeasured === 0
              ? 'Every trade of the filter was measured.'
              : `${data!.excursions.unmeasured.toLocaleString('en-US')} of ${data!.basis.trades.toLocaleString('en-US')} trades are not measured: no price bars cover them, bars are missing inside them, or they have no entry and exit times. `}
            {data!.excursions.unmeasured > 0 && !readOnly && (
              <Anchor component={Link} to="/market-data" size="xs">
                Add price bars
              </Anchor>
            )}{' '}
            Captured: the trade’s gross P&amp;L as a share of the best exit inside it.
          </Text>
        </>
      )}
    </ReportCard>
  );
}
