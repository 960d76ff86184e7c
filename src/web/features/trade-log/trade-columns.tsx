import { formatInZone } from '../../../domain/dates/clock';
import { formatR } from '../../../domain/risk/format-r';
import { useLocalStorage } from '@mantine/hooks';
import { IconExternalLink, IconPencil, IconTrash } from '@tabler/icons-react';
import {
  columnPinningFeature,
  columnSizingFeature,
  columnVisibilityFeature,
  functionalUpdate,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type Column,
  type ColumnDef,
  type ColumnPinningState,
  type ColumnVisibilityState,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { useCallback, useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatTradeLogDay } from '../../../domain/dates';
import { formatMoney, toCents } from '../../../domain/money';
import { formatExecutionTime, formatPrice, formatQuantity, formatTradeType, grossPnlCentsOf, ownTags } from '../../../domain/trades';
import { STORAGE_KEYS } from '../../lib/storage-keys';
import type { TradeSort } from '../../../contract/trades';
import { DEFAULT_TRADE_ORDER, type Trade, type TradeOrder } from '../../shared/api';
import { accountLabel, tradeCurrency, tradeName } from './format';
import classes from './trade-log.module.css';

/** Row actions; the callbacks are stable (the panel keeps them across renders) so memoized rows skip re-rendering. */
export interface TradeRowActions {
  onToggleSelect: (id: string) => void;
  onEdit: (trade: Trade) => void;
  onDelete: (trade: Trade) => void;
  /** The trade's tags on their own (a failure says 'Failed to update tags'). */
  onEditTags: (trade: Trade) => void;
}

/** What every cell of a row shares: the trader's zone and day, and the row's actions. */
export interface TradeCellContext {
  timeZone: string;
  /** Today in the trader's zone: a date of another year shows its year. */
  today: string;
  actions: TradeRowActions;
  isSelected: boolean;
  /** The trader chose to see only their own tags in the list, not those imports added. */
  hideImportTags?: boolean;
}

export interface TradeColumnMeta {
  /** The column's name in its header and in the Columns menu. */
  label: string;
  sortKey?: TradeSort;
  /** The header shows only to screen readers (the select column). */
  hiddenLabel?: boolean;
  /** Plain elements, no component per cell: a fast wheel flick mounts several rows a frame (60 fps). */
  render: (trade: Trade, ctx: TradeCellContext) => ReactNode;
  /** A one-line text cell, cut with an ellipsis. */
  text?: boolean;
  /** Extra class of the column's cells. */
  cellClass?: string;
  /** The cell's tooltip: the whole text of a cut cell. */
  title?: (trade: Trade, ctx: TradeCellContext) => string | undefined;
  testId?: string;
}

const features = tableFeatures({
  columnVisibilityFeature,
  rowSortingFeature,
  columnSizingFeature,
  columnPinningFeature,
  columnMeta: {} as TradeColumnMeta,
});

export type TradeColumn = Column<typeof features, Trade, unknown>;

const RESULT_CLASS = { Win: classes.resultWin, Loss: classes.resultLoss, BE: classes.resultBe } as const;
const tone = (cents: number) => (cents > 0 ? 'positive' : cents < 0 ? 'negative' : 'neutral');
const dash = <span className={classes.dimmed}>—</span>;

function money(trade: Trade, cents: number, testId: string) {
  return (
    <span className={classes.pnl} data-tone={tone(cents)} data-testid={testId} data-money>
      {formatMoney(cents, tradeCurrency(trade))}
    </span>
  );
}

// Times, sizes and prices are the cell's bare text (monospaced by the column's class): a row mounts no element for them.
const price = (trade: Trade, value: string | null) => (value === null ? dash : formatPrice(value, trade.contract || trade.symbol).text);
const exactPrice = (trade: Trade, value: string | null) => (value === null ? undefined : formatPrice(value, trade.contract || trade.symbol).exact);
const time = (trade: Trade, instant: string | null, ctx: TradeCellContext) => formatExecutionTime(instant, ctx.timeZone, trade.date) ?? dash;
// An execution on another day than the trade's carries its date, wider than the column: the whole of it on hover.
const wholeTime = (trade: Trade, instant: string | null, ctx: TradeCellContext) =>
  formatExecutionTime(instant, ctx.timeZone, trade.date) ?? undefined;

type TradeColumnDef = ColumnDef<typeof features, Trade, unknown>;

/** A column the trader can sort by, in the server's order named `sortKey`. */
function sortable(id: string, sortKey: TradeSort, size: number, meta: Omit<TradeColumnMeta, 'sortKey'>, descFirst: boolean): TradeColumnDef {
  // The accessor only makes the column sortable for the table model: the server does the sorting (manualSorting).
  return { id, accessorFn: (trade) => trade.id, size, sortDescFirst: descFirst, meta: { ...meta, sortKey } };
}

/** A trade's R-multiple, or a dash titled with why there is none. */
function renderR(trade: Trade) {
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
      data-tone={tone(trade.r_multiple)}
      title={`Risk ${tradeCurrency(trade) === 'USD' ? `$${trade.planned_risk?.amount ?? ''}` : `${trade.planned_risk?.amount ?? ''} ${tradeCurrency(trade)}`} from ${from}`}
      data-testid="trade-r"
      data-money
    >
      {formatR(trade.r_multiple)}
    </span>
  );
}

/** The minutes a trade's incomplete figures lack, on the trader's clock: '13:57, 14:03–14:05'. */
export function missingMinutes(trade: Trade, timeZone: string): string {
  return (trade.excursion_missing ?? [])
    .map((range) => {
      const from = Math.floor(Date.parse(range.from) / 60_000) * 60_000;
      const last = Math.floor((Date.parse(range.to) - 1) / 60_000) * 60_000;
      const clock = (ms: number) => formatInZone(ms, timeZone, 'HH:mm') ?? '';
      return last > from ? `${clock(from)}–${clock(last)}` : clock(from);
    })
    .join(', ');
}

/**
 * A trade's MAE or MFE as its page shows them: what price went against it as a loss, what went for it as a gain, then
 * in R where the trade has a planned risk; 'Incomplete' naming the minutes without a bar when its bars have holes; a
 * dash titled with why there is none.
 */
export function renderExcursion(trade: Trade, which: 'mae' | 'mfe', timeZone = 'America/New_York') {
  const amount = trade[which];
  const testId = `trade-${which}`;
  if (amount === null && trade.excursion_missing) {
    const minutes = missingMinutes(trade, timeZone);
    return (
      <span
        className={classes.dimmed}
        title={`Bars missing at ${minutes}: not computed, nothing is estimated`}
        data-testid={testId}
        data-incomplete="true"
      >
        Incomplete ({minutes})
      </span>
    );
  }
  if (amount === null) {
    return (
      <span className={classes.dimmed} title="No price bars cover this trade" data-testid={testId}>
        —
      </span>
    );
  }
  const cents = (which === 'mae' ? -1 : 1) * toCents(amount);
  const r = which === 'mae' ? trade.mae_r : trade.mfe_r;
  return (
    <span className={classes.pnl} data-tone={tone(cents)} data-testid={testId} data-money>
      {formatMoney(cents, tradeCurrency(trade))}
      {r !== null && <span className={classes.excursionR}> {formatR(r)}</span>}
    </span>
  );
}

function plain(id: string, size: number, meta: TradeColumnMeta, options: Partial<TradeColumnDef> = {}): TradeColumnDef {
  return { id, size, enableSorting: false, meta, ...options } as TradeColumnDef;
}

/**
 * The Trade Log's columns (Date, Day, Instrument, Session, Type, Result, PnL, Trade Account, Link, Tags, Notes,
 * Actions) in that order, with what an imported trade also carries: right after the PnL its entry and exit time in
 * the trader's zone, size and prices, then gross PnL and fees (gross less fees is the PnL), R and the excursions.
 * At 1440 px everything up to the exit price is in view without scrolling sideways, so the widths are as tight as
 * their usual content. Widths are fixed: the maximized table's rows mount and unmount, so they cannot follow their
 * content; Notes takes any width left over.
 */
const COLUMNS: TradeColumnDef[] = [
  plain(
    'select',
    44,
    {
      label: 'Select',
      hiddenLabel: true,
      render: (trade, ctx) => (
        <input
          type="checkbox"
          className={classes.check}
          checked={ctx.isSelected}
          onChange={() => ctx.actions.onToggleSelect(trade.id)}
          aria-label={`Select trade ${trade.symbol} ${trade.date}`}
          data-testid="trade-select"
        />
      ),
    },
    { enableHiding: false },
  ),
  sortable(
    'date',
    'date',
    112,
    { label: 'Date', text: true, testId: 'trade-date-cell', render: (trade, ctx) => formatTradeLogDay(trade.date, ctx.today) },
    false,
  ),
  plain('day', 104, { label: 'Day', text: true, render: (trade) => trade.day_of_week }),
  sortable(
    'instrument',
    'symbol',
    104,
    {
      label: 'Instrument',
      text: true,
      cellClass: classes.strong,
      testId: 'trade-instrument-cell',
      render: (trade) => (
        // The trade's own page.
        <Link to={`/trade/${trade.id}`} className={classes.symbolLink} title="Trade details" data-testid="trade-details-link">
          {trade.symbol}
        </Link>
      ),
    },
    false,
  ),
  sortable('contract', 'contract', 104, { label: 'Contract', text: true, render: (trade) => trade.contract ?? dash }, false),
  sortable('session', 'period', 88, { label: 'Session', text: true, render: (trade) => trade.period }, false),
  sortable('type', 'trade_type', 88, { label: 'Type', text: true, render: (trade) => formatTradeType(trade.trade_type) }, false),
  // The side apart from the setup (Type), and the result in R beside the PnL.
  plain('side', 60, { label: 'Side', text: true, testId: 'trade-side-cell', render: (trade) => trade.side ?? dash }),
  sortable(
    'result',
    'status',
    84,
    {
      label: 'Result',
      render: (trade) => (
        <span className={`${classes.badge} ${RESULT_CLASS[trade.status] ?? classes.resultBe}`} data-testid="trade-result">
          {trade.status}
        </span>
      ),
    },
    false,
  ),
  sortable('pnl', 'pnl', 108, { label: 'PnL', render: (trade) => money(trade, toCents(trade.pnl), 'trade-pnl') }, true),
  sortable(
    'entry_time',
    'entry_time',
    96,
    {
      label: 'Entry time',
      text: true,
      cellClass: classes.mono,
      title: (trade, ctx) => wholeTime(trade, trade.entry_time, ctx),
      render: (trade, ctx) => time(trade, trade.entry_time, ctx),
    },
    true,
  ),
  sortable(
    'exit_time',
    'exit_time',
    96,
    {
      label: 'Exit time',
      text: true,
      cellClass: classes.mono,
      title: (trade, ctx) => wholeTime(trade, trade.exit_time, ctx),
      render: (trade, ctx) => time(trade, trade.exit_time, ctx),
    },
    true,
  ),
  sortable(
    'quantity',
    'quantity',
    56,
    { label: 'Qty', text: true, cellClass: classes.mono, render: (trade) => formatQuantity(trade.quantity) ?? dash },
    true,
  ),
  sortable(
    'entry_price',
    'entry_price',
    100,
    // The stored price, unrounded, on hover (an average fill price of many decimals).
    {
      label: 'Entry price',
      text: true,
      cellClass: classes.mono,
      title: (trade) => exactPrice(trade, trade.entry_price),
      render: (trade) => price(trade, trade.entry_price),
    },
    true,
  ),
  sortable(
    'exit_price',
    'exit_price',
    96,
    {
      label: 'Exit price',
      text: true,
      cellClass: classes.mono,
      title: (trade) => exactPrice(trade, trade.exit_price),
      render: (trade) => price(trade, trade.exit_price),
    },
    true,
  ),
  sortable('gross_pnl', 'gross_pnl', 120, { label: 'Gross PnL', render: (trade) => money(trade, grossPnlCentsOf(trade), 'trade-gross-pnl') }, true),
  sortable(
    'commission',
    'commission',
    96,
    {
      label: 'Fees',
      render: (trade) => (
        <span className={`${classes.mono} ${toCents(trade.commission) === 0 ? classes.dimmed : ''}`} data-testid="trade-fees" data-money>
          {formatMoney(toCents(trade.commission), tradeCurrency(trade))}
        </span>
      ),
    },
    true,
  ),
  plain('r', 84, { label: 'R', render: (trade) => renderR(trade) }),
  // Stored from the trade's bars; sorted by the amount (the furthest against, or for, the trade first).
  sortable('mae', 'mae', 148, { label: 'MAE', text: true, render: (trade, ctx) => renderExcursion(trade, 'mae', ctx.timeZone) }, true),
  sortable('mfe', 'mfe', 148, { label: 'MFE', text: true, render: (trade, ctx) => renderExcursion(trade, 'mfe', ctx.timeZone) }, true),
  sortable(
    'account',
    'account',
    136,
    {
      label: 'Trade Account',
      text: true,
      testId: 'trade-account-cell',
      render: (trade) => (trade.account_id ? accountLabel(trade) : <span className={classes.dimmed}>{accountLabel(trade)}</span>),
    },
    false,
  ),
  plain('link', 56, {
    label: 'Link',
    render: (trade) => {
      const link = trade.link && (/^https?:\/\//i.test(trade.link) ? trade.link : `https://${trade.link}`);
      return link ? (
        <a className={classes.link} href={link} target="_blank" rel="noopener noreferrer" aria-label="Open trade link" title={trade.link}>
          <IconExternalLink size={16} aria-hidden="true" />
        </a>
      ) : (
        dash
      );
    },
  }),
  plain('tags', 176, {
    label: 'Tags',
    render: (trade, { actions, hideImportTags }) => {
      // 2 tags visible in the table, then '+N'. The cell edits the trade's tags on their own (all of them, the
      // import's too, whichever the list shows).
      const tags = hideImportTags ? ownTags(trade.tags, trade) : trade.tags;
      const hidden = tags.slice(2);
      return (
        <button
          type="button"
          className={classes.tagsButton}
          onClick={() => actions.onEditTags(trade)}
          title={trade.tags.length ? 'Edit tags' : 'Add tags'}
          data-testid="trade-tags-edit"
        >
          <span className={classes.srOnly}>{trade.tags.length ? 'Edit tags:' : 'Add tags'}</span>
          {tags.length === 0 ? (
            dash
          ) : (
            <span className={classes.tags} data-testid="trade-tags">
              {tags.slice(0, 2).map((tag) => (
                <span key={tag} className={`${classes.badge} ${classes.tag}`}>
                  {tag}
                </span>
              ))}
              {hidden.length > 0 && (
                <span className={`${classes.badge} ${classes.tagMore}`} title={hidden.join(', ')}>
                  +{hidden.length}
                </span>
              )}
            </span>
          )}
        </button>
      );
    },
  }),
  plain('notes', 240, {
    label: 'Notes',
    testId: 'trade-notes-cell',
    title: (trade) => trade.notes || undefined,
    render: (trade) => (trade.notes ? <span className={classes.notes}>{trade.notes}</span> : dash),
  }),
  plain(
    'actions',
    92,
    {
      label: 'Actions',
      render: (trade, { actions }) => {
        return (
          <span className={classes.actionGroup}>
            <button
              type="button"
              className={classes.iconButton}
              onClick={() => actions.onEdit(trade)}
              aria-label={`Edit trade ${tradeName(trade)}`}
              title="Edit trade"
              data-testid="trade-edit"
            >
              <IconPencil size={16} aria-hidden="true" />
            </button>
            <button
              type="button"
              className={`${classes.iconButton} ${classes.danger}`}
              onClick={() => actions.onDelete(trade)}
              aria-label={`Delete trade ${tradeName(trade)}`}
              title="Delete trade"
              data-testid="trade-delete"
            >
              <IconTrash size={16} aria-hidden="true" />
            </button>
          </span>
        );
      },
    },
    { enableHiding: false },
  ),
];

/** Contract is shown on the trade's page and in the day dialog; the table leaves it out until the trader adds it. */
const DEFAULT_HIDDEN: ColumnVisibilityState = { contract: false };
/** Actions stay in view while a wide table scrolls sideways inside its card. */
const PINNING: ColumnPinningState = { start: [], end: ['actions'] };
const NO_ROWS: Trade[] = [];
const COLUMN_IDS = new Set(COLUMNS.map((c) => c.id!));

/** The stored choice, kept only for columns that exist and a yes/no each: a hand-edited value is ignored. */
function readVisibility(text: string | undefined): ColumnVisibilityState {
  try {
    const value: unknown = JSON.parse(text ?? '');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return DEFAULT_HIDDEN;
    return Object.fromEntries(Object.entries(value).filter(([id, shown]) => COLUMN_IDS.has(id) && typeof shown === 'boolean'));
  } catch {
    return DEFAULT_HIDDEN;
  }
}

/**
 * The Trade Log's column model (TanStack Table): which columns show, remembered in this browser (a UI preference,
 * localStorage 'trade-log-columns'), and the sort the trader chose by a header. Sorting is the server's
 * (`manualSorting`): the list is paged from the database, so only the server knows the order of 100,000 trades.
 * The Select column shows in select mode only, Trade Account only when viewing all accounts.
 */
export function useTradeColumns({
  showAccount,
  selectMode,
  sorting,
  onSortingChange,
}: {
  showAccount: boolean;
  selectMode: boolean;
  sorting: SortingState;
  onSortingChange: (updater: Updater<SortingState>) => void;
}) {
  const [stored, setStored] = useLocalStorage<ColumnVisibilityState>({
    key: STORAGE_KEYS.tradeLogColumns,
    defaultValue: DEFAULT_HIDDEN,
    getInitialValueInEffect: false,
    serialize: JSON.stringify,
    deserialize: readVisibility,
  });
  const columnVisibility = useMemo(
    () => ({ ...stored, select: selectMode, account: showAccount && stored.account !== false }),
    [stored, selectMode, showAccount],
  );
  const onColumnVisibilityChange = useCallback(
    (updater: Updater<ColumnVisibilityState>) => {
      const { select: _select, account, ...rest } = functionalUpdate(updater, columnVisibility);
      // Out of the all-accounts view, Trade Account is not the trader's choice: their choice for it stays as it was.
      setStored({ ...rest, ...(showAccount ? { account } : 'account' in stored ? { account: stored.account } : {}) });
    },
    [columnVisibility, setStored, showAccount, stored],
  );
  const table = useTable({
    features,
    columns: COLUMNS,
    data: NO_ROWS,
    state: { columnVisibility, sorting, columnPinning: PINNING },
    onColumnVisibilityChange,
    onSortingChange,
    manualSorting: true,
    enableMultiSort: false,
  });
  const visible = useMemo(() => table.getVisibleLeafColumns(), [table, columnVisibility]);
  /** The columns the trader may show or hide, in table order. */
  const choosable = useMemo(
    () => table.getAllLeafColumns().filter((c) => c.getCanHide() && (c.id !== 'account' || showAccount)),
    [table, showAccount],
  );
  const reset = useCallback(() => setStored(DEFAULT_HIDDEN), [setStored]);
  return { table, visible, choosable, columnVisibility, reset };
}

/**
 * Whether the list leaves out the tags imports added (Imported, Winner, the instrument ...), showing only the
 * trader's own: a UI preference this browser remembers, like the columns. Off at first: every tag shows.
 */
export function useHideImportTags() {
  const [hidden, setHidden] = useLocalStorage<boolean>({
    key: STORAGE_KEYS.tradeLogHideImportTags,
    defaultValue: false,
    getInitialValueInEffect: false,
    serialize: String,
    // Anything but 'true' (a hand-edited value too) shows every tag.
    deserialize: (text) => text === 'true',
  });
  return [hidden, setHidden] as const;
}

/**
 * What a row needs of each visible column, read once per change of the columns rather than from the column model in
 * every cell of every row (a scrollbar drag renders thirty new rows a frame).
 */
export interface TradeCellSpec {
  id: string;
  meta: TradeColumnMeta;
  /** The cell's classes: one-line text, the column's own, sticky for the pinned Actions. */
  className: string | undefined;
  pinned: boolean;
}

export function toCellSpecs(columns: readonly TradeColumn[]): TradeCellSpec[] {
  return columns.map((column) => {
    const meta = column.columnDef.meta!;
    const pinned = column.getIsPinned() === 'end';
    const className = [meta.text ? classes.cell : undefined, meta.cellClass, pinned ? classes.actions : undefined].filter(Boolean).join(' ');
    return { id: column.id, meta, className: className || undefined, pinned };
  });
}

/** The list's order as GET /api/trades takes it (`sort`, `dir`): the trading order, newest first, when none is chosen. */
export function orderOf(sorting: SortingState): TradeOrder {
  const [first] = sorting;
  const sort = first && COLUMNS.find((c) => c.id === first.id)?.meta?.sortKey;
  return first && sort ? { sort, dir: first.desc ? 'desc' : 'asc' } : DEFAULT_TRADE_ORDER;
}

/** The sortable columns' labels and keys, for the card view's sort menu (cards have no headers). */
export const SORTABLE_COLUMNS = COLUMNS.filter((c) => c.meta?.sortKey && c.id !== 'account').map((c) => ({
  id: c.id!,
  label: c.meta!.label,
  descFirst: c.sortDescFirst ?? false,
}));

export const labelOfColumn = (id: string) => COLUMNS.find((c) => c.id === id)?.meta?.label ?? id;
