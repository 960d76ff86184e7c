import { Anchor, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ReportFilter } from '../../../domain/reports/filter';
import { NoTrades, ReportCard, ReportError, ReportLoading } from '../reports/report-card';
import { playbooksReportQuery } from './api';
import { PlaybooksTable } from './playbook-figures';
import { useReportsSource } from '../reports/reports-source';

/** By Playbook on /reports: each playbook's figures over the filter's trades. */
export function ByPlaybookReport({ filter }: { filter: ReportFilter }) {
  const { base, readOnly } = useReportsSource();
  const query = useQuery(playbooksReportQuery(filter, base));
  return (
    <ReportCard title="By Playbook" description={query.data?.basis.computedFrom} busy={query.isPlaceholderData} testId="report-playbooks">
      {query.isError ? (
        <ReportError error={query.error} />
      ) : !query.data ? (
        <ReportLoading height={160} />
      ) : query.data.playbooks.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="by-playbook-none">
          No playbooks yet.
          {!readOnly && (
            <>
              {' '}
              <Anchor component={Link} to="/playbooks" underline="always">
                Create one
              </Anchor>{' '}
              and give your trades their playbook to compare your setups here.
            </>
          )}
        </Text>
      ) : query.data.basis.trades === 0 ? (
        <NoTrades />
      ) : (
        <PlaybooksTable report={query.data} linked={!readOnly} />
      )}
    </ReportCard>
  );
}
