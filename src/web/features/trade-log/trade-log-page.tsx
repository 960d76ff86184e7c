import { Button, Collapse, Group, SimpleGrid, Stack } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconInbox, IconPlugConnected } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { PageHeader } from '../../components/page-header';
import type { TradeLogNavState } from '../../lib/events';
import { AccountManagerPanel, AccountSelector, useAccountChoice, useAccounts } from '../accounts';
import { refreshAfterInsert } from './api';
import { ReportFilterBanner, useTradeLogReportFilter } from './report-filter';
import { AnalysisPanel } from './analysis-panel';
import { ConnectionBanner } from './connection-banner';
import { FeeScheduleButton, ImportButton } from './import';
import { StatsPanel } from './stats-panel';
import { toastError } from './toast';
import { TradeFormModal } from './trade-form-modal';
import { TradesPanel } from './trades-panel';
import { UnassignedTradesDialog } from './unassigned-trades-dialog';

function wantsAddTrade(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as TradeLogNavState).openAddTrade === true;
}

/** The Trade Log. */
export function TradeLogPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { data: accounts, isError: accountsFailed } = useAccounts();
  const [account, setAccount] = useAccountChoice('trade-log', accounts);
  const [accountsOpen, setAccountsOpen] = useState(false);
  const [unassignedOpen, setUnassignedOpen] = useState(false);
  const [maximized, setMaximized] = useState(false);
  const [addOpen, setAddOpen] = useState(false);
  // The account the dashboard's calendar showed when its Add Trade was pressed.
  const [addTo, setAddTo] = useState<string | null>(null);
  // The Trades panel's search: the statistics count the trades the list shows.
  const [q, setQ] = useState('');
  // A Reports filter in the address ('Open in Trade Log'): the list and the statistics apply it too.
  const report = useTradeLogReportFilter(setAccount);

  // Navigation can ask for Add New Trade (the dashboard calendar, the search palette). Consume the flag so a reload
  // or going back does not open the dialog again.
  useEffect(() => {
    if (!wantsAddTrade(location.state)) return;
    setAddTo((location.state as TradeLogNavState).addToAccount ?? null);
    setAddOpen(true);
    void navigate(`${location.pathname}${location.search}${location.hash}`, { replace: true, state: null });
  }, [location.state, location.pathname, location.search, location.hash, navigate]);

  useEffect(() => {
    if (accountsFailed) toastError('Failed to load trading accounts');
  }, [accountsFailed]);

  const defaultAccountId = (accounts?.find((a) => a.is_default) ?? accounts?.[0])?.id ?? null;
  const addAccountId = account && account !== 'all' && account !== 'unassigned' ? account : defaultAccountId;
  const addInto = addTo && accounts?.some((a) => a.id === addTo) ? addTo : addAccountId;

  return (
    <Stack gap="md">
      <PageHeader title="Trade Log" />
      <Group gap="sm" wrap="wrap" mt={-8}>
        <AccountSelector value={account ?? 'all'} onChange={setAccount} withUnassigned />
        <Button
          variant={accountsOpen ? 'light' : 'default'}
          rightSection={accountsOpen ? <IconChevronUp size={16} aria-hidden="true" /> : <IconChevronDown size={16} aria-hidden="true" />}
          onClick={() => setAccountsOpen((o) => !o)}
          aria-expanded={accountsOpen}
          aria-controls="trading-accounts-panel"
          data-testid="toggle-accounts"
        >
          Trading Accounts
        </Button>
        <Button
          variant="default"
          leftSection={<IconInbox size={16} aria-hidden="true" />}
          onClick={() => setUnassignedOpen(true)}
          data-testid="open-unassigned"
        >
          Manage Unassigned Trades
        </Button>
        {/* Trades from TopstepX by its API, with no export step. */}
        <Button
          component={Link}
          to="/connections"
          variant="default"
          leftSection={<IconPlugConnected size={16} aria-hidden="true" />}
          data-testid="open-connections"
        >
          Broker Connections
        </Button>
      </Group>

      <Collapse expanded={accountsOpen} keepMounted={false} id="trading-accounts-panel">
        <AccountManagerPanel
          selectedAccount={account ?? 'all'}
          onSelectAccount={setAccount}
          accountActions={(current) => <FeeScheduleButton account={current} />}
        />
      </Collapse>

      <ConnectionBanner />

      <ReportFilterBanner filter={report.filter} params={report.params} account={account ?? 'all'} accounts={accounts ?? []} onClear={report.clear} />

      <TradesPanel
        account={account}
        maximized={maximized}
        onToggleMaximized={() => setMaximized((m) => !m)}
        onAddTrade={() => setAddOpen(true)}
        onSearchChange={setQ}
        reportFilter={report.params}
        // JSON or CSV, with its preview and the Trade Import Guide (built in ./import); it refreshes the trade queries.
        importSlot={<ImportButton accountId={addAccountId} onImported={({ createdAccountId }) => createdAccountId && setAccount(createdAccountId)} />}
      />

      {/* Maximizing the Trades panel hides Statistics and Trade Analysis. */}
      {!maximized && (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <StatsPanel account={account} q={q} filter={report.params} />
          <AnalysisPanel account={account} q={q} filter={report.params} />
        </SimpleGrid>
      )}

      <TradeFormModal
        mode="add"
        opened={addOpen}
        onClose={() => {
          setAddOpen(false);
          setAddTo(null);
        }}
        accounts={accounts ?? []}
        initialAccountId={addInto}
      />
      <UnassignedTradesDialog
        opened={unassignedOpen}
        onClose={() => setUnassignedOpen(false)}
        accounts={accounts ?? []}
        onAssigned={() => void refreshAfterInsert(client)}
      />
    </Stack>
  );
}
