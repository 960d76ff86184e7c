import { Anchor, Button, Group, Paper, Text } from '@mantine/core';
import { IconChartBar, IconFilter, IconX } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  countActiveFilters,
  describeReportFilterParts,
  describeReportRange,
  parseReportFilterParams,
  REPORT_FILTER_KEYS,
  writeReportFilterParams,
  type ReportFilter,
} from '../../../domain/reports/filter';
import type { AccountFilter, TradingAccount } from '../../shared/api';

const FILTER_KEYS: ReadonlySet<string> = new Set(REPORT_FILTER_KEYS);

/**
 * The Reports' filter in the Trade Log's address ('Open in Trade Log' from a report, a row or a cell): the
 * list and the statistics take it as the reports do. One account in it becomes the account selector's choice (and
 * leaves the address); several stay in the filter, with the selector on All Trades. Returns the filter and its
 * parameters for the requests ('' without one).
 */
export function useTradeLogReportFilter(setAccount: (account: AccountFilter) => void): { filter: ReportFilter; params: string; clear: () => void } {
  const [search, setSearch] = useSearchParams();
  const filter = useMemo(() => parseReportFilterParams(search), [search]);
  // One account (or 'all', the Reports' word for every account) is the selector's to show.
  const accountParams = search.getAll('account');
  const single = accountParams.length === 1 ? accountParams[0]! : null;
  const several = filter.account.length > 1;
  // Several accounts are the filter's: the selector lists all, so that it adds no account of its own.
  useEffect(() => {
    if (several) setAccount('all');
  }, [several, setAccount]);
  useEffect(() => {
    if (!single) return;
    setAccount(single);
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('account');
        return next;
      },
      { replace: true },
    );
  }, [single, setAccount, setSearch]);
  const clear = useCallback(
    () =>
      setSearch((current) => {
        const next = new URLSearchParams();
        for (const [key, value] of current) if (!FILTER_KEYS.has(key)) next.append(key, value);
        return next;
      }),
    [setSearch],
  );
  const effective = single ? { ...filter, account: [] } : filter;
  return { filter: effective, params: writeReportFilterParams(effective).toString(), clear };
}

/** What the list is filtered by, in words, with Clear and the way back to the Reports. */
export function ReportFilterBanner({
  filter,
  params,
  account,
  accounts,
  onClear,
}: {
  filter: ReportFilter;
  params: string;
  account: AccountFilter;
  accounts: readonly TradingAccount[];
  onClear: () => void;
}) {
  if (countActiveFilters(filter) === 0) return null;
  const range =
    filter.range === 'all-time'
      ? []
      : [describeReportRange(filter, filter.range === 'custom' ? { from: filter.from, to: filter.to } : { from: null, to: null })];
  const parts = [...range, ...describeReportFilterParts(filter, (id) => accounts.find((a) => a.id === id)?.name)];
  const reports = new URLSearchParams(params);
  if (account !== 'all' && !reports.has('account')) reports.append('account', account);
  return (
    <Paper withBorder radius="md" p="sm" data-testid="trade-log-filter">
      <Group gap="sm" justify="space-between" wrap="wrap">
        <Group gap={8} wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
          <IconFilter size={18} aria-hidden="true" style={{ flexShrink: 0, marginTop: 2 }} />
          <Text size="sm" style={{ minWidth: 0 }}>
            <Text span fw={600}>
              Filtered from Reports:
            </Text>{' '}
            {parts.join('; ')}
          </Text>
        </Group>
        <Group gap="xs">
          <Anchor component={Link} to={`/reports${reports.toString() ? `?${reports}` : ''}`} size="sm" data-testid="trade-log-filter-reports">
            <Group gap={4} wrap="nowrap">
              <IconChartBar size={16} aria-hidden="true" />
              Open in Reports
            </Group>
          </Anchor>
          <Button
            variant="default"
            size="compact-sm"
            leftSection={<IconX size={14} aria-hidden="true" />}
            onClick={onClear}
            data-testid="trade-log-filter-clear"
          >
            Clear filters
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
