import { lazy, startTransition, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useUiModes } from '../../../lib/ui-modes';
import { CALENDAR_WIDGET_ID, displayColumns, type ColumnCount, type DashboardWidget } from '../layout/widgets';
import classes from '../dashboard.module.css';

const SortableWidgetColumns = lazy(() => import('./widget-grid-sortable').then((m) => ({ default: m.SortableWidgetColumns })));

interface WidgetGridProps {
  widgets: DashboardWidget[];
  columnCount: ColumnCount;
  /** Always first in column 0 (not a layout widget): the quick notes. */
  pinned: ReactNode;
  renderWidget: (widget: DashboardWidget) => ReactNode;
  /** The new arrangement after a drag: widget ids per stored column (0..2). */
  onArrange: (columns: string[][]) => void;
}

/**
 * The calendar first (column 0, position 0, as wide as its type says), the other
 * widgets in 1, 2 or 3 columns. In edit mode with 3 columns widgets are dragged within and between columns (the drag
 * code loads then); with fewer the stored columns fold together and dragging is off, so a narrow window never
 * rewrites the wide layout.
 */
export function WidgetGrid({ widgets, columnCount, pinned, renderWidget, onArrange }: WidgetGridProps) {
  const { editMode } = useUiModes();
  const calendar = widgets.find((w) => w.id === CALENDAR_WIDGET_ID && w.visible);
  const columns = useMemo(
    () => displayColumns(widgets, columnCount).map((col) => col.filter((w) => w.id !== CALENDAR_WIDGET_ID).map((w) => w.id)),
    [widgets, columnCount],
  );
  const byId = useMemo(() => new Map(widgets.map((w) => [w.id, w])), [widgets]);
  // On a phone the one column starts below the calendar, out of sight: its quick notes and widgets are drawn one at a
  // time just after the first screen, each in a task of its own, instead of all in the page's first commit (one long
  // task on a slow phone: total blocking time).
  const drawn = useStagedCount(1 + (columns[0]?.length ?? 0), columnCount === 1);
  const calendarSpan = calendar?.type === 'pnl-calendar-full-width' || columnCount < 3 ? 'full' : 'double';
  // The calendar stays first in stored column 0.
  const arrange = (next: string[][]) => onArrange(next.map((c, i) => (i === 0 && calendar ? [CALENDAR_WIDGET_ID, ...c] : c)));

  const plain = (
    <div className={classes.widgetColumns} data-columns={columnCount} data-testid="widget-columns">
      {columns.map((ids, index) => (
        <div key={index} className={classes.widgetColumn} data-testid={`widget-column-${index}`}>
          {index === 0 && drawn > 0 && pinned}
          <div className={classes.widgetDrop} data-empty={ids.length === 0 || undefined}>
            {ids.map((id, position) => {
              const widget = byId.get(id);
              if (index === 0 && position + 1 >= drawn) return null;
              return widget ? (
                <div key={id} data-widget-id={id}>
                  {renderWidget(widget)}
                </div>
              ) : null;
            })}
          </div>
        </div>
      ))}
    </div>
  );

  return (
    <div className={classes.widgetArea}>
      {calendar && (
        <div className={classes.calendarSlot} data-span={calendarSpan} data-widget-id={calendar.id} data-type={calendar.type}>
          {renderWidget(calendar)}
        </div>
      )}
      {editMode && columnCount === 3 ? (
        <Suspense fallback={plain}>
          <SortableWidgetColumns columns={columns} byId={byId} pinned={pinned} renderWidget={renderWidget} onArrange={arrange} />
        </Suspense>
      ) : (
        plain
      )}
    </div>
  );
}

/**
 * How many of `total` items to draw: all of them, or with `staged` one more per task, starting from none, each step a
 * transition of its own after a macrotask, so the browser may paint and answer input between them.
 */
function useStagedCount(total: number, staged: boolean): number {
  const [count, setCount] = useState(staged ? 0 : total);
  useEffect(() => {
    if (!staged || count >= total) return;
    const timer = setTimeout(() => startTransition(() => setCount((n) => n + 1)), 0);
    return () => clearTimeout(timer);
  }, [count, total, staged]);
  return staged ? count : total;
}
