import { Skeleton, Table, VisuallyHidden } from '@mantine/core';
import { IconExternalLink, IconPencil, IconTrash } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { Trade } from '../../shared/api';
import { formatUsd } from '../../../domain/money';
import { formatR } from '../../../domain/risk/format-r';
import { formatTradeType } from '../../../domain/trades';
import { accountLabel, formatTradeDay, pnlCentsOf } from './format';
import { InlineEditRow } from './inline-edit-row';
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
    { key: 'date', label: 'Date', width: 124 },
    { key: 'day', label: 'Day', width: 108 },
    { key: 'instrument', label: 'Instrument', width: 100 },
    { key: 'session', label: 'Session', width: 84 },
    { key: 'type', label: 'Type', width: 104 },
    // Issue 27: the side apart from the setup (Type), and the result in R beside the P&L.
    { key: 'side', label: 'Side', width: 64 },
    { key: 'result', label: 'Result', width: 80 },
    { key: 'pnl', label: 'PnL', width: 112 },
    { key: 'r', label: 'R', width: 76 },
    ...(showAccount ? [{ key: 'account', label: 'Trade Account', width: 128 }] : []),
    { key: 'link', label: 'Link', width: 48 },
    { key: 'tags', label: 'Tags', width: 176 },
    // The least Notes gets; it takes any width left over. Sized so that one account's table fits a 1440 px screen
    // without scrolling sideways, so no note sits under the sticky Actions column (issue 14).
    { key: 'notes', label: 'Notes', width: 240 },
    { key: 'actions', label: 'Actions', width: 92 },
  ];
}

interface TradeRowProps {
  trade: Trade;
  showAccount: boolean;
  selectMode: boolean;
  isSelected: boolean;
  actions: TradeRowActions;
  index?: number;
  /** In the maximized table: the row's offset from the top of the list, in px. */
  start?: number;
}

const RESULT_CLASS = { Win: classes.resultWin, Loss: classes.resultLoss, BE: classes.resultBe } as const;
const TONE = (cents: number) => (cents > 0 ? 'positive' : cents < 0 ? 'negative' : 'neutral');

/**
 * One trade as a table row, in plain elements styled by the module's classes rather than a Mantine component per
 * cell: a fast wheel flick mounts several rows every frame, and ~15 components a row cost the frame budget (issue 14,
 * 60 fps). Memoized, so while the maximized table scrolls only rows coming into view render. No tooltips (each is a
 * floating-element hook per row); the buttons carry their names as aria-label and title.
 */
const TradeRow = memo(function TradeRow({ trade, showAccount, selectMode, isSelected, actions, index, start }: TradeRowProps) {
  const { onToggleSelect, onEdit, onDelete } = actions;
  const cents = pnlCentsOf(trade);
  const shownTags = trade.tags.slice(0, 2);
  const hiddenTags = trade.tags.slice(2);
  const link = trade.link && (/^https?:\/\//i.test(trade.link) ? trade.link : `https://${trade.link}`);
  return (
    <tr
      className={classes.row}
      style={start === undefined ? undefined : { transform: `translateY(${start}px)` }}
      data-index={index}
      data-testid="trade-row"
      data-trade-id={trade.id}
      aria-rowindex={index === undefined ? undefined : index + 2}
    >
      {selectMode && (
        <td data-col="select">
          <input
            type="checkbox"
            className={classes.check}
            checked={isSelected}
            onChange={() => onToggleSelect(trade.id)}
            aria-label={`Select trade ${trade.symbol} ${trade.date}`}
            data-testid="trade-select"
          />
        </td>
      )}
      <td className={classes.cell} data-col="date" data-testid="trade-date-cell">
        {formatTradeDay(trade.date)}
      </td>
      <td className={classes.cell} data-col="day">
        {trade.day_of_week}
      </td>
      <td className={`${classes.cell} ${classes.strong}`} data-col="instrument" data-testid="trade-instrument-cell">
        {/* The trade's own page (issue 10). */}
        <Link to={`/trade/${trade.id}`} className={classes.symbolLink} title="Trade details" data-testid="trade-details-link">
          {trade.symbol}
        </Link>
      </td>
      <td className={classes.cell} data-col="session">
        {trade.period}
      </td>
      <td className={classes.cell} data-col="type">
        {formatTradeType(trade.trade_type)}
      </td>
      <td className={`${classes.cell} ${trade.side ? '' : classes.dimmed}`} data-col="side" data-testid="trade-side-cell">
        {trade.side ?? '—'}
      </td>
      <td data-col="result">
        <span className={`${classes.badge} ${RESULT_CLASS[trade.status] ?? classes.resultBe}`} data-testid="trade-result">
          {trade.status}
        </span>
      </td>
      <td data-col="pnl">
        <span className={classes.pnl} data-tone={TONE(cents)} data-testid="trade-pnl" data-money>
          {formatUsd(cents)}
        </span>
      </td>
      <td data-col="r">
        <RCell trade={trade} />
      </td>
      {showAccount && (
        <td className={`${classes.cell} ${trade.account_id ? '' : classes.dimmed}`} data-col="account" data-testid="trade-account-cell">
          {accountLabel(trade)}
        </td>
      )}
      <td data-col="link">
        {link ? (
          <a className={classes.link} href={link} target="_blank" rel="noopener noreferrer" aria-label="Open trade link" title={trade.link}>
            <IconExternalLink size={16} aria-hidden="true" />
          </a>
        ) : (
          <span className={classes.dimmed}>—</span>
        )}
      </td>
      <td data-col="tags">
        {trade.tags.length === 0 ? (
          <span className={classes.dimmed}>—</span>
        ) : (
          <span className={classes.tags} data-testid="trade-tags">
            {shownTags.map((tag) => (
              <span key={tag} className={`${classes.badge} ${classes.tag}`}>
                {tag}
              </span>
            ))}
            {hiddenTags.length > 0 && (
              <span className={`${classes.badge} ${classes.tagMore}`} title={hiddenTags.join(', ')}>
                +{hiddenTags.length}
              </span>
            )}
          </span>
        )}
      </td>
      <td data-col="notes" title={trade.notes || undefined} data-testid="trade-notes-cell">
        {trade.notes ? <span className={classes.notes}>{trade.notes}</span> : <span className={classes.dimmed}>—</span>}
      </td>
      <td className={classes.actions} data-col="actions">
        <span className={classes.actionGroup}>
          <button type="button" className={classes.iconButton} onClick={() => onEdit(trade)} aria-label="Edit trade" title="Edit trade" data-testid="trade-edit">
            <IconPencil size={16} aria-hidden="true" />
          </button>
          <button
            type="button"
            className={`${classes.iconButton} ${classes.danger}`}
            onClick={() => onDelete(trade)}
            aria-label="Delete trade"
            title="Delete trade"
            data-testid="trade-delete"
          >
            <IconTrash size={16} aria-hidden="true" />
          </button>
        </span>
      </td>
    </tr>
  );
});

/** A trade's R-multiple, or a dash titled with why there is none. */
function RCell({ trade }: { trade: Trade }) {
  if (trade.r_multiple === null) {
    return (
      <span className={classes.dimmed} title="No planned risk" data-testid="trade-r">
        —
      </span>
    );
  }
  const from = trade.planned_risk?.source.startsWith('default') ? 'your default' : 'its plan';
  return (
    <span
      className={classes.pnl}
      data-tone={TONE(trade.r_multiple)}
      title={`Risk ${trade.planned_risk ? `$${trade.planned_risk.amount}` : ''} from ${from}`}
      data-testid="trade-r"
      data-money
    >
      {formatR(trade.r_multiple)}
    </span>
  );
}

function Head({ columns }: { columns: Column[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((c) => (
          <Table.Th key={c.key} data-col={c.key} className={c.key === 'actions' ? classes.actions : undefined}>
            {c.key === 'select' ? <VisuallyHidden>{c.label}</VisuallyHidden> : c.label}
          </Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
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
        <Head columns={columns} />
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
    overscan: 8,
    // Rows are keyed by position (the default): a key function that reads the rows changes whenever a page arrives,
    // and each change makes the virtualizer walk all 100,000 positions again, in every frame of a scroll (issue 14).
  });
  const items = virtualizer.getVirtualItems();
  // The inline editor is measured (it may be taller than a row); when editing ends, its row's height is forgotten.
  useEffect(() => {
    if (editingId === null) virtualizer.measure();
  }, [editingId, virtualizer]);
  useReportVisibleRows(items[0]?.index ?? 0, items[items.length - 1]?.index ?? 0, list.onVisibleRange);

  const columns = columnsFor(showAccount, handlers.selectMode);
  const minWidth = columns.reduce((sum, c) => sum + (c.width ?? 0), 0);
  // Each column's width as a variable the cells read (data-col), so the widths live only in columnsFor.
  const widths = Object.fromEntries(columns.map((c) => [`--col-${c.key}`, `${c.width}px`]));

  return (
    <div ref={scrollRef} className={classes.virtualScroller} data-testid="trade-scroller" tabIndex={0} aria-label="All trades">
      <Table
        className={`${classes.table} ${classes.virtualTable}`}
        verticalSpacing="xs"
        style={{ minWidth, ...widths }}
        data-testid="trade-table"
        role="table"
        aria-rowcount={count + 1}
      >
        <Head columns={columns} />
        {/* Rows are placed absolutely at their offsets: a row that stays on screen is never laid out or painted
            again while others come and go (a padded table re-laid and repainted every row on every frame). */}
        <tbody className={classes.virtualBody} style={{ height: virtualizer.getTotalSize() }}>
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
                start={item.start}
                trade={trade}
                showAccount={showAccount}
                selectMode={handlers.selectMode}
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
