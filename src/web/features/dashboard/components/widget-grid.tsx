import { lazy, Suspense, useMemo, type ReactNode } from 'react';
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
 * Spec part 1 §2.4 and part 2 §4: the calendar first (column 0, position 0, as wide as its type says), the other
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
  const calendarSpan = calendar?.type === 'pnl-calendar-full-width' || columnCount < 3 ? 'full' : 'double';
  // The calendar stays first in stored column 0.
  const arrange = (next: string[][]) => onArrange(next.map((c, i) => (i === 0 && calendar ? [CALENDAR_WIDGET_ID, ...c] : c)));

  const plain = (
    <div className={classes.widgetColumns} data-columns={columnCount} data-testid="widget-columns">
      {columns.map((ids, index) => (
        <div key={index} className={classes.widgetColumn} data-testid={`widget-column-${index}`}>
          {index === 0 && pinned}
          <div className={classes.widgetDrop} data-empty={ids.length === 0 || undefined}>
            {ids.map((id) => {
              const widget = byId.get(id);
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
