/**
 * The dashboard's widget layout.
 * Stored on the server in user_preferences.widgets so it follows the trader to another browser.
 */
export interface DashboardWidget {
  id: string;
  type: string;
  visible: boolean;
  position: number;
  column: number;
}

export const CALENDAR_WIDGET_ID = 'tradelog-pnl-calendar';

export type CalendarWidgetType = 'pnl-calendar' | 'pnl-calendar-double-width' | 'pnl-calendar-full-width';

/** Breakpoints 768 px and 1200 px set 1, 2 or 3 widget columns. */
export const TWO_COLUMNS_MIN_WIDTH = 768;
export const THREE_COLUMNS_MIN_WIDTH = 1200;
/** Resize debounce 1000 ms. */
export const RESIZE_SETTLE_MS = 1000;

export type ColumnCount = 1 | 2 | 3;

export function getColumnCount(width: number): ColumnCount {
  if (width < TWO_COLUMNS_MIN_WIDTH) return 1;
  if (width < THREE_COLUMNS_MIN_WIDTH) return 2;
  return 3;
}

/** Under 768 px pnl-calendar; under 1200 px double width; otherwise full width. */
export function getCalendarType(width: number): CalendarWidgetType {
  if (width < TWO_COLUMNS_MIN_WIDTH) return 'pnl-calendar';
  if (width < THREE_COLUMNS_MIN_WIDTH) return 'pnl-calendar-double-width';
  return 'pnl-calendar-full-width';
}

/** The widgets a dashboard can hold, with their titles for the Add widget menu. */
export const WIDGET_CATALOG: ReadonlyArray<{ id: string; type: string; title: string }> = [
  { id: CALENDAR_WIDGET_ID, type: 'pnl-calendar-double-width', title: 'PnL Calendar' },
  { id: 'forex-news', type: 'forex-news', title: 'USD Economic Events' },
  { id: 'tasks', type: 'tasks', title: 'Trading Tasks' },
  { id: 'edgebook-score', type: 'score', title: 'Edgebook Score' },
  { id: 'all-time-winrate', type: 'winrate', title: 'Win Rate' },
  { id: 'month-winrate', type: 'month-winrate', title: 'Monthly Win Rate' },
  { id: 'monthly-pnl-chart', type: 'balance-chart', title: 'Account Balance' },
  // The spec does not show where quick links appear; they are a widget to add, not in the default layout.
  { id: 'quick-links', type: 'quick-links', title: 'Quick Links' },
  // Each prop account's standing; added from Add widget.
  { id: 'prop-accounts', type: 'prop-accounts', title: 'Prop Accounts' },
];

const KNOWN_IDS = new Set(WIDGET_CATALOG.map((w) => w.id));

/** 7 widgets in 3 columns. */
export const DEFAULT_WIDGETS: readonly DashboardWidget[] = [
  { id: CALENDAR_WIDGET_ID, type: 'pnl-calendar-double-width', visible: true, position: 0, column: 0 },
  { id: 'forex-news', type: 'forex-news', visible: true, position: 0, column: 1 },
  { id: 'tasks', type: 'tasks', visible: true, position: 1, column: 1 },
  { id: 'edgebook-score', type: 'score', visible: true, position: 0, column: 2 },
  { id: 'all-time-winrate', type: 'winrate', visible: true, position: 1, column: 2 },
  { id: 'month-winrate', type: 'month-winrate', visible: true, position: 2, column: 2 },
  { id: 'monthly-pnl-chart', type: 'balance-chart', visible: true, position: 3, column: 2 },
];

export function defaultWidgets(): DashboardWidget[] {
  return DEFAULT_WIDGETS.map((w) => ({ ...w }));
}

function isWidget(value: unknown): value is DashboardWidget {
  if (typeof value !== 'object' || value === null) return false;
  const w = value as Record<string, unknown>;
  return typeof w.id === 'string' && typeof w.type === 'string' && typeof w.column === 'number' && typeof w.position === 'number';
}

/**
 * The stored widgets, cleaned: unknown ids and duplicates dropped, columns clamped to 0..2, positions renumbered.
 * When the stored widgets are missing or not a list, a default double-width calendar is created.
 */
export function readStoredWidgets(stored: unknown): DashboardWidget[] {
  if (!Array.isArray(stored)) {
    return [{ id: CALENDAR_WIDGET_ID, type: 'pnl-calendar-double-width', visible: true, position: 0, column: 0 }];
  }
  const seen = new Set<string>();
  const widgets: DashboardWidget[] = [];
  for (const item of stored) {
    if (!isWidget(item) || !KNOWN_IDS.has(item.id) || seen.has(item.id)) continue;
    seen.add(item.id);
    widgets.push({
      id: item.id,
      type: item.type,
      visible: item.visible !== false,
      position: Number.isFinite(item.position) ? item.position : 0,
      column: Math.min(2, Math.max(0, Math.trunc(Number.isFinite(item.column) ? item.column : 0))),
    });
  }
  return renumber(widgets);
}

/** Positions 0..n-1 within each column, keeping the current order. */
export function renumber(widgets: DashboardWidget[]): DashboardWidget[] {
  const out: DashboardWidget[] = [];
  for (let column = 0; column < 3; column += 1) {
    widgets
      .filter((w) => w.column === column)
      .sort((a, b) => a.position - b.position)
      .forEach((w, position) => out.push({ ...w, position }));
  }
  return out;
}

/**
 * At start and 1 s after each resize, the PnL calendar is forced to column 0, position 0 (other
 * column-0 widgets shift down) and its type follows the window width.
 */
export function forceCalendar(widgets: DashboardWidget[], width: number): DashboardWidget[] {
  const calendar = widgets.find((w) => w.id === CALENDAR_WIDGET_ID);
  if (!calendar) return widgets;
  const others = widgets.filter((w) => w.id !== CALENDAR_WIDGET_ID);
  const shifted = others.map((w) => (w.column === 0 ? { ...w, position: w.position + 1 } : w));
  return renumber([{ ...calendar, column: 0, position: -1, type: getCalendarType(width) }, ...shifted]);
}

/** Visible widgets of each stored column (0..2), in order. */
export function widgetColumns(widgets: DashboardWidget[]): DashboardWidget[][] {
  return [0, 1, 2].map((column) => widgets.filter((w) => w.visible && w.column === column).sort((a, b) => a.position - b.position));
}

/**
 * The visible columns for a window with `count` columns: with fewer than 3, column 2 folds into column 0 (the
 * column under the calendar), and with 1 everything stacks in column order. With 3 the calendar spans the full width,
 * so a column 0 holding only the calendar (the spec's default layout) would leave the quick notes alone above ~900 px
 * of nothing: the lower half of the longest column moves there. A drag saves what is shown.
 */
export function displayColumns(widgets: DashboardWidget[], count: ColumnCount): DashboardWidget[][] {
  const [c0 = [], c1 = [], c2 = []] = widgetColumns(widgets);
  if (count === 3) {
    const others = c0.filter((w) => w.id !== CALENDAR_WIDGET_ID);
    const longest = c2.length >= c1.length ? c2 : c1;
    if (others.length > 0 || longest.length < 2) return [c0, c1, c2];
    const keep = Math.ceil(longest.length / 2);
    const moved = longest.slice(keep);
    const rest = longest.slice(0, keep);
    return longest === c2 ? [[...c0, ...moved], c1, rest] : [[...c0, ...moved], rest, c2];
  }
  if (count === 2) return [[...c0, ...c2], c1];
  return [[...c0, ...c1, ...c2]];
}

/** Applies an arrangement of ids per column (after a drag) to the widget list; hidden widgets keep their place. */
export function applyArrangement(widgets: DashboardWidget[], columns: string[][]): DashboardWidget[] {
  const placed = new Map<string, { column: number; position: number }>();
  columns.forEach((ids, column) => ids.forEach((id, position) => placed.set(id, { column, position })));
  return renumber(
    widgets.map((w) => {
      const p = placed.get(w.id);
      return p ? { ...w, column: p.column, position: p.position } : { ...w, position: w.position + 1000 };
    }),
  );
}

export function setWidgetVisible(widgets: DashboardWidget[], id: string, visible: boolean): DashboardWidget[] {
  const existing = widgets.find((w) => w.id === id);
  if (!existing) {
    const entry = WIDGET_CATALOG.find((w) => w.id === id);
    if (!entry) return widgets;
    const column = DEFAULT_WIDGETS.find((w) => w.id === id)?.column ?? 0;
    return renumber([...widgets, { id, type: entry.type, visible, column, position: 1000 }]);
  }
  return renumber(widgets.map((w) => (w.id === id ? { ...w, visible, ...(visible && { position: 1000 }) } : w)));
}

export function hideAllWidgets(widgets: DashboardWidget[]): DashboardWidget[] {
  return widgets.map((w) => ({ ...w, visible: false }));
}

/** Catalog entries not visible now: what the Add widget menu offers. */
export function hiddenWidgets(widgets: DashboardWidget[]) {
  const visible = new Set(widgets.filter((w) => w.visible).map((w) => w.id));
  return WIDGET_CATALOG.filter((w) => !visible.has(w.id));
}

/** Two layouts are the same arrangement (ids, columns, order, visibility). */
export function sameLayout(a: DashboardWidget[], b: DashboardWidget[]): boolean {
  const key = (ws: DashboardWidget[]) =>
    renumber(ws)
      .map((w) => `${w.id}:${w.column}:${w.position}:${w.visible}`)
      .join('|');
  return key(a) === key(b);
}

/** Header stats: profile welcome, monthly PnL, profit factor, win rate; order remembered. */
export const STATS_WIDGET_IDS = ['welcome', 'monthly-pnl', 'profit-factor', 'win-rate'] as const;
export type StatsWidgetId = (typeof STATS_WIDGET_IDS)[number];

export function readStatsOrder(stored: unknown): StatsWidgetId[] {
  const known = new Set<string>(STATS_WIDGET_IDS);
  const order: StatsWidgetId[] = [];
  if (Array.isArray(stored)) {
    for (const id of stored) if (typeof id === 'string' && known.has(id) && !order.includes(id as StatsWidgetId)) order.push(id as StatsWidgetId);
  }
  for (const id of STATS_WIDGET_IDS) if (!order.includes(id)) order.push(id);
  return order;
}
