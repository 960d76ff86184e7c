import { ActionIcon, Checkbox, Group, Skeleton, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef } from 'react';
import type { Trade } from '../../shared/api';
import { accountLabel, formatTradeDay } from './format';
import { InlineEditRow } from './inline-edit-row';
import { LinkCell, PnlText, ResultBadge, TagList } from './trade-cells';
import classes from './trade-log.module.css';

/** Row actions; the callbacks are stable (the panel keeps them across renders) so memoized rows skip re-rendering. */
export interface TradeRowActions {
  onToggleSelect: (id: string) => void;
  onEdit: (trade: Trade) => void;
  onDelete: (trade: Trade) => void;
}

export interface TradeRowHandlers extends TradeRowActions {
  selectMode: boolean;
  selected: ReadonlySet<string>;
}

interface Column {
  key: string;
  label: string;
  /** Fixed width in the virtualized table (its rows mount and unmount, so widths cannot follow content). */
  width?: number;
}

/** Spec part 2 "Trade table": Trade Account only when viewing all accounts. */
function columnsFor(showAccount: boolean, selectMode: boolean): Column[] {
  return [
    ...(selectMode ? [{ key: 'select', label: 'Select', width: 44 }] : []),
    { key: 'date', label: 'Date', width: 128 },
    { key: 'day', label: 'Day', width: 108 },
    { key: 'instrument', label: 'Instrument', width: 100 },
    { key: 'session', label: 'Session', width: 96 },
    { key: 'type', label: 'Type', width: 120 },
    { key: 'result', label: 'Result', width: 88 },
    { key: 'pnl', label: 'PnL', width: 112 },
    ...(showAccount ? [{ key: 'account', label: 'Trade Account', width: 136 }] : []),
    { key: 'link', label: 'Link', width: 56 },
    { key: 'tags', label: 'Tags', width: 176 },
    { key: 'notes', label: 'Notes', width: 200 },
    { key: 'actions', label: 'Actions', width: 112 },
  ];
}

interface TradeRowProps {
  trade: Trade;
  showAccount: boolean;
  selectMode: boolean;
  isSelected: boolean;
  actions: TradeRowActions;
  index?: number;
}

/**
 * One trade as a table row. Memoized: while the maximized table scrolls, only rows coming into view render. No
 * tooltips here (each is a floating-element hook per row); the buttons carry their names as aria-label and title.
 */
const TradeRow = memo(function TradeRow({ trade, showAccount, selectMode, isSelected, actions, index }: TradeRowProps) {
  const { onToggleSelect, onEdit, onDelete } = actions;
  return (
    <Table.Tr data-index={index} data-testid="trade-row" data-trade-id={trade.id} aria-rowindex={index === undefined ? undefined : index + 2}>
      {selectMode && (
        <Table.Td>
          <Checkbox
            checked={isSelected}
            onChange={() => onToggleSelect(trade.id)}
            aria-label={`Select trade ${trade.symbol} ${trade.date}`}
            data-testid="trade-select"
          />
        </Table.Td>
      )}
      <Table.Td className={classes.cell} data-testid="trade-date-cell">
        {formatTradeDay(trade.date)}
      </Table.Td>
      <Table.Td className={classes.cell}>{trade.day_of_week}</Table.Td>
      <Table.Td className={classes.cell} fw={600} data-testid="trade-instrument-cell">
        {trade.symbol}
      </Table.Td>
      <Table.Td className={classes.cell}>{trade.period}</Table.Td>
      <Table.Td className={classes.cell}>{trade.trade_type}</Table.Td>
      <Table.Td>
        <ResultBadge result={trade.status} />
      </Table.Td>
      <Table.Td>
        <PnlText trade={trade} />
      </Table.Td>
      {showAccount && (
        <Table.Td className={classes.cell} data-testid="trade-account-cell">
          <Text size="sm" c={trade.account_id ? undefined : 'dimmed'} truncate>
            {accountLabel(trade)}
          </Text>
        </Table.Td>
      )}
      <Table.Td>
        <LinkCell link={trade.link} />
      </Table.Td>
      <Table.Td>
        <TagList tags={trade.tags} max={2} />
      </Table.Td>
      <Table.Td title={trade.notes || undefined} data-testid="trade-notes-cell">
        {trade.notes ? (
          <Text size="sm" className={classes.notes}>
            {trade.notes}
          </Text>
        ) : (
          <Text c="dimmed" size="sm" span>
            —
          </Text>
        )}
      </Table.Td>
      <Table.Td className={classes.actions}>
        <Group gap={4} wrap="nowrap">
          <ActionIcon variant="subtle" color="gray" onClick={() => onEdit(trade)} aria-label="Edit trade" title="Edit trade" data-testid="trade-edit">
            <IconPencil size={16} aria-hidden="true" />
          </ActionIcon>
          <ActionIcon variant="subtle" color="red" onClick={() => onDelete(trade)} aria-label="Delete trade" title="Delete trade" data-testid="trade-delete">
            <IconTrash size={16} aria-hidden="true" />
          </ActionIcon>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
});

function Head({ columns, fixed }: { columns: Column[]; fixed: boolean }) {
  return (
    <>
      {fixed && (
        <colgroup>
          {columns.map((c) => (
            <col key={c.key} style={{ width: c.width }} />
          ))}
        </colgroup>
      )}
      <Table.Thead>
        <Table.Tr>
          {columns.map((c) => (
            <Table.Th key={c.key} className={c.key === 'actions' ? classes.actions : undefined}>{c.key === 'select' ? <VisuallyHidden>{c.label}</VisuallyHidden> : c.label}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
    </>
  );
}

interface TableProps {
  trades: readonly Trade[];
  showAccount: boolean;
  handlers: TradeRowHandlers;
}

/** The compact table: the 5 most recent trades, sized by their content. */
export function CompactTradeTable({ trades, showAccount, handlers }: TableProps) {
  const columns = columnsFor(showAccount, handlers.selectMode);
  return (
    <div className={classes.tableWrap}>
      <Table className={classes.table} highlightOnHover verticalSpacing="xs" data-testid="trade-table">
        <Head columns={columns} fixed={false} />
        <Table.Tbody>
          {trades.map((trade) => (
            <TradeRow
              key={trade.id}
              trade={trade}
              showAccount={showAccount}
              selectMode={handlers.selectMode}
              isSelected={handlers.selected.has(trade.id)}
              actions={handlers}
            />
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}

export interface VirtualListProps {
  /** How many trades the filter has; rows whose page has not arrived are placeholders until it does. */
  total: number;
  rowAt: (index: number) => Trade | undefined;
  /** Told which rows are on screen, so that their pages are fetched. */
  onVisibleRange: (first: number, last: number) => void;
}

const ROW_HEIGHT = 49;

/** Reports the rows in view to the list's window whenever they change. */
export function useReportVisibleRows(first: number, last: number, onVisibleRange: VirtualListProps['onVisibleRange']) {
  useEffect(() => onVisibleRange(first, last), [first, last, onVisibleRange]);
}

/**
 * The maximized table: every trade of the filter, virtualized (only the rows in view exist in the DOM) and read page
 * by page around the rows in view, so 100,000 trades scroll as smoothly as 10 and any row is one request away.
 * Inline editing with Done.
 */
export function VirtualTradeTable({
  showAccount,
  handlers,
  editingId,
  onDoneEditing,
  rowActions,
  ...list
}: Omit<TableProps, 'trades'> &
  VirtualListProps & {
    editingId: string | null;
    /** Stable actions whose onEdit edits inline (the maximized table's editing, with Done). */
    rowActions: TradeRowActions;
    onDoneEditing: () => void;
  }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const count = list.total;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    getItemKey: (index) => list.rowAt(index)?.id ?? `placeholder-${index}`,
  });
  const items = virtualizer.getVirtualItems();
  useReportVisibleRows(items[0]?.index ?? 0, items[items.length - 1]?.index ?? 0, list.onVisibleRange);

  const columns = columnsFor(showAccount, handlers.selectMode);
  const minWidth = columns.reduce((sum, c) => sum + (c.width ?? 0), 0);
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = items.length > 0 ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;

  return (
    <div ref={scrollRef} className={classes.virtualScroller} data-testid="trade-scroller" tabIndex={0} aria-label="All trades">
      <Table
        className={`${classes.table} ${classes.virtualTable}`}
        highlightOnHover
        verticalSpacing="xs"
        style={{ minWidth }}
        data-testid="trade-table"
        aria-rowcount={count + 1}
      >
        <Head columns={columns} fixed />
        <Table.Tbody>
          {paddingTop > 0 && (
            <tr aria-hidden="true">
              <td colSpan={columns.length} style={{ height: paddingTop, padding: 0, border: 0 }} />
            </tr>
          )}
          {items.map((item) => {
            const trade = list.rowAt(item.index);
            if (!trade) {
              return (
                <Table.Tr key={item.key} data-index={item.index} className={classes.placeholderRow}>
                  <Table.Td colSpan={columns.length}>
                    <Skeleton height={14} radius="sm" aria-label="Loading trade" />
                  </Table.Td>
                </Table.Tr>
              );
            }
            if (trade.id === editingId) {
              return (
                <InlineEditRow
                  key={item.key}
                  index={item.index}
                  rowRef={virtualizer.measureElement}
                  trade={trade}
                  showAccount={showAccount}
                  selectMode={handlers.selectMode}
                  onDone={onDoneEditing}
                />
              );
            }
            return (
              <TradeRow
                key={item.key}
                index={item.index}
                trade={trade}
                showAccount={showAccount}
                selectMode={handlers.selectMode}
                isSelected={handlers.selected.has(trade.id)}
                actions={rowActions}
              />
            );
          })}
          {paddingBottom > 0 && (
            <tr aria-hidden="true">
              <td colSpan={columns.length} style={{ height: paddingBottom, padding: 0, border: 0 }} />
            </tr>
          )}
        </Table.Tbody>
      </Table>
    </div>
  );
}
