import {
  ActionIcon,
  Button,
  Center,
  Checkbox,
  Divider,
  Group,
  Loader,
  Menu,
  Modal,
  Paper,
  Popover,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import {
  IconArrowDown,
  IconArrowsMaximize,
  IconArrowsMinimize,
  IconArrowsSort,
  IconArrowUp,
  IconColumns3,
  IconDownload,
  IconLayoutCards,
  IconPlus,
  IconSearch,
  IconShield,
  IconTable,
} from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SortingState, Updater } from '@tanstack/react-table';
import { useCallback, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import { tradePageQuery, type AccountFilter, type Trade } from '../../shared/api';
import { useTraderTime } from '../../shared/trader-clock';
import { BulkRiskDialog } from './bulk-risk-dialog';
import { RiskDefaultsDialog } from './risk-defaults-dialog';
import { COMPACT_LIMIT, downloadTradesBackup, fetchTradeIds, startTradeDelete, UNDO_WINDOW_MS, useBulkDeleteTrades, useTradeWindow } from './api';
import { BULK_EDIT_KINDS, BulkEditDialog } from './bulk-edit-dialog';
import { CompactTradeCards, VirtualTradeCards } from './trade-cards';
import { labelOfColumn, SORTABLE_COLUMNS, orderOf, toCellSpecs, useHideImportTags, useTradeColumns, type TradeColumn } from './trade-columns';
import { TradeFormModal } from './trade-form-modal';
import { CompactTradeTable, VirtualTradeTable, type TradeGridColumns, type TradeRowHandlers } from './trade-table';
import { TradeTagsDialog } from './trade-tags-dialog';
import { describeError, isNetworkError, toastError, toastSuccess } from './toast';
import { INITIAL_TRADES_PANEL, reduceTradesPanel, type TradesView } from './trades-panel-state';
import { toastWithUndo } from './undo-toast';

const SEARCH_DEBOUNCE_MS = 300;
// Mobile width under 768 px; part 2: card view is the default on small screens.
const SMALL_SCREEN = '(max-width: 47.99em)';

interface TradesPanelProps {
  account: AccountFilter | null;
  maximized: boolean;
  onToggleMaximized: () => void;
  onAddTrade: () => void;
  /** The import button (JSON or CSV), built with the import dialog. */
  importSlot?: ReactNode;
  /** The search the list applies (trimmed, after the typing pause), for the panels that follow it (statistics). */
  onSearchChange?: (q: string) => void;
  /** A Reports filter the list applies (its URL parameters; 'Open in Trade Log'), '' for none. */
  reportFilter?: string;
}

/**
 * The Trades panel: compact (5 most recent) or maximized (every trade, virtualized and paged), server-side search,
 * table and card views, select mode (Select All over the whole filter, Edit Selected with Undo, Set Risk, Delete
 * Selected), edit and optimistic delete. What it holds besides the
 * server's trades is kept in a reducer (./trades-panel-state.ts).
 */
export function TradesPanel({ account, maximized, onToggleMaximized, onAddTrade, importSlot, onSearchChange, reportFilter = '' }: TradesPanelProps) {
  const smallScreen = useMediaQuery(SMALL_SCREEN, false, { getInitialValueInEffect: false });
  const [state, dispatch] = useReducer(reduceTradesPanel, INITIAL_TRADES_PANEL);
  const { selectMode, selected, sorting, inlineId } = state;
  const view = state.viewChoice ?? (smallScreen ? 'cards' : 'table');
  const [q] = useDebouncedValue(state.search.trim(), SEARCH_DEBOUNCE_MS);
  useEffect(() => onSearchChange?.(q), [q, onSearchChange]);
  const setSorting = useCallback((sorting: Updater<SortingState>) => dispatch({ type: 'sort', sorting }), []);
  const client = useQueryClient();
  const bulkDelete = useBulkDeleteTrades();
  const filter = account ?? 'all';
  const showAccount = filter === 'all';
  const order = orderOf(sorting);
  const clock = useTraderTime();
  const { timeZone } = clock;
  const today = clock.today(new Date());
  const columns = useTradeColumns({ showAccount, selectMode, sorting, onSortingChange: setSorting });
  const [hideImportTags, setHideImportTags] = useHideImportTags();
  const grid: TradeGridColumns = useMemo(
    () => ({ columns: columns.visible, cells: toCellSpecs(columns.visible), timeZone, today, hideImportTags }),
    [columns.visible, timeZone, today, hideImportTags],
  );

  const compact = useQuery({
    ...tradePageQuery(filter, q, COMPACT_LIMIT, order, reportFilter),
    enabled: account !== null && !maximized,
    placeholderData: keepPreviousData,
  });
  const full = useTradeWindow(filter, q, account !== null && maximized, order, reportFilter);

  const trades = maximized ? full.loaded : (compact.data?.trades ?? []);
  const total = (maximized ? full.total : compact.data?.total) ?? 0;
  const active = maximized ? full : compact;
  const loadFailed = active.isError && !isNetworkError(active.error);

  useEffect(() => {
    // A failure shows its message; an unreachable server shows the connection banner instead.
    if (loadFailed) toastError('Failed to fetch trades');
  }, [loadFailed]);

  // Changing what is listed clears the selection (so does leaving select mode) and ends an edit in place.
  useEffect(() => dispatch({ type: 'clear-selection' }), [filter, q, reportFilter, maximized]);
  useEffect(() => dispatch({ type: 'edit-inline', id: null }), [filter, q, reportFilter, maximized, view]);

  const toggleSelect = useCallback((id: string) => dispatch({ type: 'toggle-selected', id }), []);
  const allSelected = state.selectedAll;
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  });
  const selectAllRun = useRef(0);

  // Select All takes every trade of what is listed (account, search, filter), not only the rows drawn: the rows drawn
  // at once, then every trade the server names. A selection changed by hand since is the trader's and is kept.
  const selectAll = async () => {
    const run = ++selectAllRun.current;
    if (allSelected) {
      dispatch({ type: 'clear-selection' });
      return;
    }
    dispatch({ type: 'select-ids', ids: trades.map((t) => t.id) });
    try {
      const { ids } = await fetchTradeIds(filter, q, order, reportFilter);
      if (run === selectAllRun.current && stateRef.current.selectedAll) dispatch({ type: 'select-ids', ids });
    } catch (error) {
      toastError('Failed to select all trades', describeError(error));
    }
  };

  const deleteOne = (trade: Trade) => {
    dispatch({ type: 'forget-trade', id: trade.id });
    // Deleting is optimistic; the DELETE goes when the toast with Undo leaves.
    void startTradeDelete(client, trade.id).then((pending) =>
      toastWithUndo('Trade deleted successfully', {
        duration: UNDO_WINDOW_MS,
        onUndo: () => void pending.undo(),
        onGone: () => void pending.commit().catch((error: unknown) => toastError('Failed to delete trade', describeError(error))),
      }),
    );
  };

  const deleteSelected = () => {
    const ids = [...selected];
    dispatch({ type: 'open', dialog: null });
    bulkDelete.mutate(ids, {
      onSuccess: () => {
        toastSuccess('Deleted selected trades');
        dispatch({ type: 'leave-select-mode' });
      },
      onError: (error) => toastError('Failed to delete selected trades', describeError(error)),
    });
  };

  const exportTrades = async () => {
    dispatch({ type: 'export', running: true });
    try {
      await downloadTradesBackup();
      toastSuccess('Trades data exported successfully!');
    } catch {
      toastError('Failed to export trades data');
    } finally {
      dispatch({ type: 'export', running: false });
    }
  };

  // Stable row callbacks, so the memoized rows of a long list do not all re-render on every scroll or selection.
  const deleteRef = useRef(deleteOne);
  useEffect(() => {
    deleteRef.current = deleteOne;
  });
  const onDelete = useCallback((trade: Trade) => deleteRef.current(trade), []);
  const onEditInline = useCallback((trade: Trade) => dispatch({ type: 'edit-inline', id: trade.id }), []);
  const onEdit = useCallback((trade: Trade) => dispatch({ type: 'edit', trade }), []);
  const onEditTags = useCallback((trade: Trade) => dispatch({ type: 'edit-tags', trade }), []);
  const inlineActions = useMemo(
    () => ({ onToggleSelect: toggleSelect, onEdit: onEditInline, onDelete, onEditTags }),
    [toggleSelect, onEditInline, onDelete, onEditTags],
  );
  const handlers: TradeRowHandlers = useMemo(
    () => ({ selectMode, selected, onToggleSelect: toggleSelect, onEdit, onDelete, onEditTags }),
    [selectMode, selected, toggleSelect, onEdit, onDelete, onEditTags],
  );
  const onDoneEditing = useCallback(() => dispatch({ type: 'edit-inline', id: null }), []);
  const listProps = { total, rowAt: full.rowAt, onVisibleRange: full.onVisibleRange };

  let content: ReactNode;
  if (account === null || active.isPending) {
    content = (
      <Center py="xl">
        <Loader role="status" aria-label="Loading trades" />
      </Center>
    );
  } else if (trades.length === 0 && !active.isPlaceholderData) {
    content = (
      <Stack align="center" gap="xs" py="xl" data-testid="trades-empty">
        <Text fw={600}>{q ? 'No trades match your search' : 'No trades yet'}</Text>
        {!q && (
          <Button variant="light" leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={onAddTrade}>
            Add New Trade
          </Button>
        )}
      </Stack>
    );
  } else if (maximized) {
    content =
      view === 'table' ? (
        <VirtualTradeTable
          {...listProps}
          grid={grid}
          handlers={handlers}
          editingId={inlineId}
          rowActions={inlineActions}
          onDoneEditing={onDoneEditing}
        />
      ) : (
        <VirtualTradeCards
          {...listProps}
          showAccount={showAccount}
          timeZone={timeZone}
          today={today}
          hideImportTags={hideImportTags}
          handlers={handlers}
        />
      );
  } else {
    content =
      view === 'table' ? (
        <CompactTradeTable trades={trades} grid={grid} handlers={handlers} />
      ) : (
        <CompactTradeCards
          trades={trades}
          showAccount={showAccount}
          timeZone={timeZone}
          today={today}
          hideImportTags={hideImportTags}
          handlers={handlers}
        />
      );
  }

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'md' }} radius="md" data-testid="trades-panel" data-maximized={maximized || undefined}>
      <Group justify="space-between" gap="sm" mb="sm" wrap="wrap">
        <Group gap="xs" align="baseline">
          <Title order={2} size="h4">
            Trades
          </Title>
          <Text size="sm" c="dimmed" data-testid="trades-total">
            {total} {total === 1 ? 'trade' : 'trades'}
          </Text>
        </Group>
        <Group gap="xs" wrap="wrap">
          <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={onAddTrade} data-testid="add-trade">
            Add New Trade
          </Button>
          {importSlot}
          <Tooltip label="Export trades (JSON backup)">
            <ActionIcon
              variant="default"
              size={36}
              onClick={() => void exportTrades()}
              loading={state.exporting}
              aria-label="Export trades"
              data-testid="export-trades"
            >
              <IconDownload size={18} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Risk defaults">
            <ActionIcon
              variant="default"
              size={36}
              onClick={() => dispatch({ type: 'open', dialog: 'risk-defaults' })}
              aria-label="Risk defaults"
              data-testid="risk-defaults"
            >
              <IconShield size={18} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={maximized ? 'Minimize' : 'Maximize'}>
            <ActionIcon
              variant="default"
              size={36}
              onClick={onToggleMaximized}
              aria-label={maximized ? 'Minimize trades' : 'Maximize trades'}
              aria-pressed={maximized}
              data-testid="toggle-maximize"
            >
              {maximized ? <IconArrowsMinimize size={18} aria-hidden="true" /> : <IconArrowsMaximize size={18} aria-hidden="true" />}
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>

      <Group gap="xs" mb="sm" wrap="wrap">
        <TextInput
          placeholder="Search trades..."
          aria-label="Search trades"
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          value={state.search}
          onChange={(e) => dispatch({ type: 'type-search', search: e.currentTarget.value })}
          style={{ flex: '1 1 200px' }}
          maxLength={200}
          data-testid="trade-search"
        />
        <SegmentedControl
          value={view}
          onChange={(v) => dispatch({ type: 'choose-view', view: v as TradesView })}
          data={[
            {
              value: 'table',
              label: (
                <Center title="Table view">
                  <IconTable size={16} aria-hidden="true" />
                  <VisuallyHidden>Table view</VisuallyHidden>
                </Center>
              ),
            },
            {
              value: 'cards',
              label: (
                <Center title="Card view">
                  <IconLayoutCards size={16} aria-hidden="true" />
                  <VisuallyHidden>Card view</VisuallyHidden>
                </Center>
              ),
            },
          ]}
          data-testid="view-toggle"
        />
        {view === 'table' ? (
          <ColumnsMenu choosable={columns.choosable} onReset={columns.reset} hideImportTags={hideImportTags} onHideImportTags={setHideImportTags} />
        ) : (
          <SortMenu sorting={sorting} onChange={setSorting} hideImportTags={hideImportTags} onHideImportTags={setHideImportTags} />
        )}
        <Button variant={selectMode ? 'filled' : 'default'} onClick={() => dispatch({ type: 'toggle-select-mode' })} data-testid="select-mode">
          {selectMode ? 'Cancel' : 'Select'}
        </Button>
        {selectMode && (
          <>
            <Button variant="default" onClick={() => void selectAll()} disabled={trades.length === 0} data-testid="select-all">
              {allSelected ? 'Unselect All' : 'Select All'}
            </Button>
            <Menu position="bottom-start" withinPortal>
              <Menu.Target>
                <Button variant="default" disabled={selected.size === 0} data-testid="edit-selected">
                  Edit Selected{selected.size > 0 ? ` (${selected.size})` : ''}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {BULK_EDIT_KINDS.map(({ kind, label }) => (
                  <Menu.Item key={kind} onClick={() => dispatch({ type: 'bulk-edit', kind })} data-testid={`edit-selected-${kind}`}>
                    {label}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
            <Button
              variant="default"
              disabled={selected.size === 0}
              onClick={() => dispatch({ type: 'open', dialog: 'bulk-risk' })}
              data-testid="set-risk-selected"
            >
              Set Risk{selected.size > 0 ? ` (${selected.size})` : ''}
            </Button>
            <Button
              color="red.8"
              disabled={selected.size === 0}
              onClick={() => dispatch({ type: 'open', dialog: 'confirm-bulk-delete' })}
              data-testid="delete-selected"
            >
              Delete Selected{selected.size > 0 ? ` (${selected.size})` : ''}
            </Button>
          </>
        )}
      </Group>

      {content}

      {!maximized && total > trades.length && trades.length > 0 && (
        <Text size="sm" c="dimmed" ta="center" mt="sm" data-testid="trades-footer">
          {sorting[0]
            ? `Showing ${trades.length} trades sorted by ${labelOfColumn(sorting[0].id)}. Maximize to see all ${total} trades.`
            : `Showing ${trades.length} most recent trades. Maximize to see all ${total} trades.`}
        </Text>
      )}

      <TradeFormModal mode="edit" opened={state.editTrade !== null} trade={state.editTrade} onClose={() => dispatch({ type: 'edit', trade: null })} />
      <BulkRiskDialog
        ids={[...selected]}
        opened={state.dialog === 'bulk-risk'}
        onClose={() => dispatch({ type: 'open', dialog: null })}
        onDone={() => {
          dispatch({ type: 'open', dialog: null });
          dispatch({ type: 'leave-select-mode' });
        }}
      />
      <BulkEditDialog
        kind={state.bulkEdit}
        ids={[...selected]}
        onClose={() => dispatch({ type: 'bulk-edit', kind: null })}
        onDone={() => {
          dispatch({ type: 'bulk-edit', kind: null });
          dispatch({ type: 'leave-select-mode' });
        }}
      />
      <RiskDefaultsDialog opened={state.dialog === 'risk-defaults'} onClose={() => dispatch({ type: 'open', dialog: null })} />
      <TradeTagsDialog trade={state.tagsTrade} onClose={() => dispatch({ type: 'edit-tags', trade: null })} />

      <Modal
        opened={state.dialog === 'confirm-bulk-delete'}
        onClose={() => dispatch({ type: 'open', dialog: null })}
        title="Delete Selected"
        centered
        data-testid="bulk-delete-modal"
      >
        <Text size="sm">{`Delete selected trades? This action cannot be undone. It will permanently delete ${selected.size} trade(s).`}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => dispatch({ type: 'open', dialog: null })}>
            Cancel
          </Button>
          <Button color="red.8" onClick={deleteSelected} data-testid="bulk-delete-confirm">
            Delete
          </Button>
        </Group>
      </Modal>
    </Paper>
  );
}

/** The choice of the import's tags in the list, beside the columns (table) or the orders (cards). */
interface ImportTagsChoice {
  hideImportTags: boolean;
  onHideImportTags: (hide: boolean) => void;
}

/** The import-tags choice's label in the table's Columns menu, and its sort menu item's while they are hidden. */
const SHOW_IMPORT_TAGS = 'Show import tags';

/** Which columns the table shows (remembered in this browser); Actions always; the import's tags or only the trader's. */
function ColumnsMenu({
  choosable,
  onReset,
  hideImportTags,
  onHideImportTags,
}: { choosable: readonly TradeColumn[]; onReset: () => void } & ImportTagsChoice) {
  return (
    // size: never taller than the room on screen (it scrolls inside instead), so a phone never has to scroll the page
    // to reach a choice, which would take the Columns button out of view and the list with it.
    <Popover position="bottom-end" withinPortal shadow="md" trapFocus middlewares={{ flip: true, shift: true, size: true }}>
      <Popover.Target>
        <Button variant="default" leftSection={<IconColumns3 size={16} aria-hidden="true" />} data-testid="columns-menu">
          Columns
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="columns-dropdown" style={{ overflowY: 'auto' }}>
        <Stack gap={8} role="group" aria-label="Columns shown">
          {choosable.map((column) => (
            <Checkbox
              key={column.id}
              label={column.columnDef.meta!.label}
              checked={column.getIsVisible()}
              onChange={column.getToggleVisibilityHandler()}
              data-testid={`column-toggle-${column.id}`}
            />
          ))}
          <Button variant="subtle" size="compact-sm" onClick={onReset} fullWidth>
            Default columns
          </Button>
          <Divider />
          <Checkbox
            label={SHOW_IMPORT_TAGS}
            checked={!hideImportTags}
            onChange={(event) => onHideImportTags(!event.currentTarget.checked)}
            data-testid="import-tags-toggle"
          />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/** The card view has no headers: the same server-side orders from a menu. */
function SortMenu({
  sorting,
  onChange,
  hideImportTags,
  onHideImportTags,
}: { sorting: SortingState; onChange: (sorting: SortingState) => void } & ImportTagsChoice) {
  const [current] = sorting;
  const label = current ? labelOfColumn(current.id) : 'Trading order';
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          leftSection={
            current ? (
              current.desc ? (
                <IconArrowDown size={16} aria-hidden="true" />
              ) : (
                <IconArrowUp size={16} aria-hidden="true" />
              )
            ) : (
              <IconArrowsSort size={16} aria-hidden="true" />
            )
          }
          aria-label={`Sort: ${label}${current ? (current.desc ? ', descending' : ', ascending') : ''}`}
          data-testid="sort-menu"
        >
          {label}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => onChange([])}>Trading order (newest first)</Menu.Item>
        {SORTABLE_COLUMNS.filter((c) => c.id !== 'date').map((column) => {
          const desc = current?.id === column.id ? !current.desc : column.descFirst;
          return (
            <Menu.Item key={column.id} onClick={() => onChange([{ id: column.id, desc }])} data-testid={`sort-by-${column.id}`}>
              {column.label}
              {current?.id === column.id ? (current.desc ? ' ↓' : ' ↑') : ''}
            </Menu.Item>
          );
        })}
        <Menu.Divider />
        {/* A menu's items are actions (no checkbox role): the item names what it will do. */}
        <Menu.Item closeMenuOnClick={false} onClick={() => onHideImportTags(!hideImportTags)} data-testid="import-tags-toggle">
          {hideImportTags ? SHOW_IMPORT_TAGS : 'Hide import tags'}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
