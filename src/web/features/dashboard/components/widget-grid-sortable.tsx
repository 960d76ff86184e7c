import {
  DndContext,
  KeyboardSensor,
  MeasuringStrategy,
  PointerSensor,
  closestCorners,
  useDroppable,
  useSensor,
  useSensors,
  type DragEndEvent,
  type DragOverEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { SortableContext, arrayMove, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import type { DashboardWidget } from '../layout/widgets';
import classes from '../dashboard.module.css';
import { DragHandleContext } from './widget-card';

/**
 * The widget columns with drag and drop (dnd-kit), loaded only when edit mode turns on: the dashboard's first screen
 * does not carry the drag code.
 */
export interface SortableColumnsProps {
  /** Widget ids per displayed column, the calendar left out. */
  columns: string[][];
  byId: Map<string, DashboardWidget>;
  pinned: ReactNode;
  renderWidget: (widget: DashboardWidget) => ReactNode;
  /** The new arrangement after a drag: widget ids per displayed column. */
  onArrange: (columns: string[][]) => void;
}

const columnId = (index: number) => `column-${index}`;

export function SortableWidgetColumns({ columns, byId, pinned, renderWidget, onArrange }: SortableColumnsProps) {
  const [dragColumns, setDragColumns] = useState<string[][] | null>(null);
  const shown = dragColumns ?? columns;
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const findColumn = (id: UniqueIdentifier, cols: string[][]) => {
    const text = String(id);
    if (text.startsWith('column-')) return Number(text.slice(7));
    return cols.findIndex((c) => c.includes(text));
  };

  const onDragOver = ({ active, over }: DragOverEvent) => {
    if (!over) return;
    setDragColumns((previous) => {
      const cols = previous ?? columns;
      const from = findColumn(active.id, cols);
      const to = findColumn(over.id, cols);
      if (from < 0 || to < 0 || from === to) return cols;
      const next = cols.map((c) => [...c]);
      next[from] = next[from]!.filter((id) => id !== active.id);
      const overIndex = next[to]!.indexOf(String(over.id));
      // Dropped on the lower half of a widget: after it; on the upper half or on the column itself: before it.
      const translated = active.rect.current.translated;
      const below = translated !== null && translated.top + translated.height / 2 > over.rect.top + over.rect.height / 2;
      const index = overIndex < 0 ? next[to]!.length : overIndex + (below ? 1 : 0);
      next[to]!.splice(index, 0, String(active.id));
      return next;
    });
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const cols = dragColumns ?? columns;
    setDragColumns(null);
    if (!over) return;
    const column = findColumn(active.id, cols);
    const overColumn = findColumn(over.id, cols);
    let next = cols;
    if (column >= 0 && column === overColumn) {
      const from = cols[column]!.indexOf(String(active.id));
      const to = cols[column]!.indexOf(String(over.id));
      if (from >= 0 && to >= 0 && from !== to) {
        next = cols.map((c, i) => (i === column ? arrayMove(c, from, to) : c));
      }
    }
    if (JSON.stringify(next) !== JSON.stringify(columns)) onArrange(next);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCorners}
      // Widgets change columns mid-drag: measure the drop targets again as the layout moves.
      measuring={{ droppable: { strategy: MeasuringStrategy.Always } }}
      onDragStart={() => setDragColumns(columns)}
      onDragOver={onDragOver}
      onDragEnd={onDragEnd}
      onDragCancel={() => setDragColumns(null)}
    >
      <div className={classes.widgetColumns} data-columns={3} data-dragging={dragColumns ? true : undefined} data-testid="widget-columns">
        {shown.map((ids, index) => (
          <SortableColumn key={index} index={index} ids={ids} dragging={dragColumns !== null} pinned={index === 0 ? pinned : null}>
            {ids.map((id) => {
              const widget = byId.get(id);
              return widget ? (
                <SortableWidget key={id} id={id}>
                  {renderWidget(widget)}
                </SortableWidget>
              ) : null;
            })}
          </SortableColumn>
        ))}
      </div>
    </DndContext>
  );
}

function SortableColumn(props: { index: number; ids: string[]; dragging: boolean; pinned: ReactNode; children: ReactNode }) {
  const { index, ids, dragging, pinned, children } = props;
  const { setNodeRef } = useDroppable({ id: columnId(index) });
  return (
    <div className={classes.widgetColumn} data-testid={`widget-column-${index}`}>
      {pinned}
      <SortableContext id={columnId(index)} items={ids} strategy={verticalListSortingStrategy}>
        <div ref={setNodeRef} className={classes.widgetDrop} data-empty={ids.length === 0 || undefined}>
          {children}
          {dragging && ids.length === 0 && (
            <Text size="xs" c="dimmed" ta="center" className={classes.dropHint}>
              Drag a widget here
            </Text>
          )}
        </div>
      </SortableContext>
    </div>
  );
}

function SortableWidget({ id, children }: { id: string; children: ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  return (
    <div
      ref={setNodeRef}
      data-widget-id={id}
      className={classes.sortableWidget}
      data-dragging={isDragging || undefined}
      style={{ transform: CSS.Translate.toString(transform), transition }}
    >
      <DragHandleContext.Provider value={{ ref: setActivatorNodeRef, attributes: { ...attributes }, listeners }}>
        {children}
      </DragHandleContext.Provider>
    </div>
  );
}
