import { Skeleton, Table, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, type CSSProperties } from 'react';
import type { Trade } from '../../shared/api';
import { InlineEditRow } from './inline-edit-row';
import type { TradeCellContext, TradeCellSpec, TradeColumn, TradeRowActions } from './trade-columns';
import classes from './trade-log.module.css';

export type { TradeRowActions } from './trade-columns';

export interface TradeRowHandlers extends TradeRowActions {
  selectMode: boolean;
  selected: ReadonlySet<string>;
}

/** What the rows share: the visible columns (TanStack Table's model, and each one's cell spec), the trader's zone and today. */
export interface TradeGridColumns {
  columns: readonly TradeColumn[];
  cells: readonly TradeCellSpec[];
  timeZone: string;
  today: string;
  /** Only the trader's own tags in the Tags column (a choice this browser remembers). */
  hideImportTags: boolean;
}

interface TradeRowProps {
  trade: Trade;
  cells: readonly TradeCellSpec[];
  timeZone: string;
  today: string;
  hideImportTags: boolean;
  isSelected: boolean;
  actions: TradeRowActions;
  index?: number;
  /** In the maximized table: the row's offset from the top of the list, in px. */
  start?: number;
}

const pinnedClass = (column: TradeColumn) => (column.getIsPinned() === 'end' ? classes.actions : undefined);

/**
 * One trade as a table row, in plain elements styled by the module's classes rather than a Mantine component per
 * cell: a fast wheel flick mounts several rows every frame, and ~15 components a row cost the frame budget (60 fps).
 * Memoized, so while the maximized table scrolls only rows coming into view render. No tooltips (each is a
 * floating-element hook per row); the buttons carry their names as aria-label and title.
 */
const TradeRow = memo(function TradeRow({ trade, cells, timeZone, today, hideImportTags, isSelected, actions, index, start }: TradeRowProps) {
  const ctx: TradeCellContext = { timeZone, today, actions, isSelected, hideImportTags };
  return (
    <tr
      className={classes.row}
      style={start === undefined ? undefined : { transform: `translateY(${start}px)` }}
      data-index={index}
      data-testid="trade-row"
      data-trade-id={trade.id}
      aria-rowindex={index === undefined ? undefined : index + 2}
    >
      {cells.map(({ id, meta, className }) => (
        <td key={id} className={className} data-col={id} title={meta.title?.(trade, ctx)} data-testid={meta.testId}>
          {meta.render(trade, ctx)}
        </td>
      ))}
    </tr>
  );
});

const SORT_NAMES = { asc: 'ascending', desc: 'descending' } as const;

/**
 * The headers: a sortable column's name is a button that sorts by it (the server orders the list). Memoized: the
 * maximized table renders on every frame of a scroll, and the headers change only with the columns and the sort.
 */
const Head = memo(function Head({ columns, sortedBy }: { columns: readonly TradeColumn[]; sortedBy: string }) {
  return (
    <Table.Thead data-sorted-by={sortedBy || undefined}>
      <Table.Tr>
        {columns.map((column) => {
          const meta = column.columnDef.meta!;
          const sorted = column.getIsSorted();
          // No sort chosen: the list is in trading order, newest first, which is the Date column's descending order.
          const shown = sorted || (sortedBy === '' && column.id === 'date' ? 'desc' : false);
          const next = column.getNextSortingOrder();
          return (
            <Table.Th key={column.id} data-col={column.id} className={pinnedClass(column)} aria-sort={shown ? SORT_NAMES[shown] : undefined}>
              {meta.hiddenLabel ? (
                <VisuallyHidden>{meta.label}</VisuallyHidden>
              ) : column.getCanSort() ? (
                <button
                  type="button"
                  className={classes.sortButton}
                  onClick={column.getToggleSortingHandler()}
                  data-sorted={shown || undefined}
                  title={next ? `Sort by ${meta.label}, ${SORT_NAMES[next]}` : 'Back to trading order'}
                  data-testid={`sort-${column.id}`}
                >
                  {meta.label}
                  {shown === 'asc' ? (
                    <IconArrowUp size={14} aria-hidden="true" />
                  ) : shown === 'desc' ? (
                    <IconArrowDown size={14} aria-hidden="true" />
                  ) : (
                    <IconArrowsSort size={14} aria-hidden="true" className={classes.sortIdle} />
                  )}
                </button>
              ) : (
                meta.label
              )}
            </Table.Th>
          );
        })}
      </Table.Tr>
    </Table.Thead>
  );
});

/** Each column's width as a variable its cells read (data-col), so the widths live only in the column model. */
function useGridStyle(columns: readonly TradeColumn[]): CSSProperties {
  return useMemo(() => {
    const widths = Object.fromEntries(columns.map((c) => [`--col-${c.id}`, `${c.getSize()}px`]));
    return { minWidth: columns.reduce((sum, c) => sum + c.getSize(), 0), ...widths };
  }, [columns]);
}

const sortedByOf = (columns: readonly TradeColumn[]) => {
  const column = columns.find((c) => c.getIsSorted());
  return column ? `${column.id}:${column.getIsSorted()}` : '';
};

interface TableProps {
  trades: readonly Trade[];
  grid: TradeGridColumns;
  handlers: TradeRowHandlers;
}

/**
 * The compact table: the 5 most recent trades (or the first 5 of the chosen order). The same column widths as the
 * maximized table; wider than its card, it scrolls sideways inside it with Actions kept in view.
 */
export function CompactTradeTable({ trades, grid, handlers }: TableProps) {
  const style = useGridStyle(grid.columns);
  return (
    <div className={classes.tableWrap} data-testid="trade-table-wrap">
      <Table className={`${classes.table} ${classes.grid}`} verticalSpacing="xs" style={style} data-testid="trade-table">
        <Head columns={grid.columns} sortedBy={sortedByOf(grid.columns)} />
        <Table.Tbody className={classes.gridBody}>
          {trades.map((trade) => (
            <TradeRow
              key={trade.id}
              trade={trade}
              cells={grid.cells}
              timeZone={grid.timeZone}
              today={grid.today}
              hideImportTags={grid.hideImportTags}
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
  grid,
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
    overscan: 8,
    // Rows are keyed by position (the default): a key function that reads the rows changes whenever a page arrives,
    // and each change makes the virtualizer walk all 100,000 positions again, in every frame of a scroll.
  });
  const items = virtualizer.getVirtualItems();
  // The inline editor is measured (it may be taller than a row); when editing ends, its row's height is forgotten.
  useEffect(() => {
    if (editingId === null) virtualizer.measure();
  }, [editingId, virtualizer]);
  useReportVisibleRows(items[0]?.index ?? 0, items[items.length - 1]?.index ?? 0, list.onVisibleRange);

  const style = useGridStyle(grid.columns);
  const sortedBy = sortedByOf(grid.columns);
  // A new order starts at its first row.
  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
  }, [sortedBy]);

  return (
    <div ref={scrollRef} className={classes.virtualScroller} data-testid="trade-scroller" tabIndex={0} aria-label="All trades">
      <Table
        className={`${classes.table} ${classes.grid}`}
        verticalSpacing="xs"
        style={style}
        data-testid="trade-table"
        role="table"
        aria-rowcount={count + 1}
      >
        <Head columns={grid.columns} sortedBy={sortedBy} />
        {/* Rows are placed absolutely at their offsets: a row that stays on screen is never laid out or painted
            again while others come and go (a padded table re-laid and repainted every row on every frame). */}
        <tbody className={`${classes.gridBody} ${classes.virtualBody}`} style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const trade = list.rowAt(item.index);
            if (!trade) {
              return (
                <tr
                  key={item.key}
                  data-index={item.index}
                  className={`${classes.row} ${classes.placeholderRow}`}
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  <td data-col="placeholder">
                    <Skeleton height={14} radius="sm" aria-label="Loading trade" />
                  </td>
                </tr>
              );
            }
            if (trade.id === editingId) {
              return (
                <InlineEditRow
                  key={item.key}
                  index={item.index}
                  start={item.start}
                  rowRef={virtualizer.measureElement}
                  trade={trade}
                  cells={grid.cells}
                  timeZone={grid.timeZone}
                  today={grid.today}
                  onDone={onDoneEditing}
                />
              );
            }
            return (
              <TradeRow
                key={item.key}
                index={item.index}
                start={item.start}
                trade={trade}
                cells={grid.cells}
                timeZone={grid.timeZone}
                today={grid.today}
                hideImportTags={grid.hideImportTags}
                isSelected={handlers.selected.has(trade.id)}
                actions={rowActions}
              />
            );
          })}
        </tbody>
      </Table>
    </div>
  );
}
