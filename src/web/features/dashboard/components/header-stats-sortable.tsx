import { DndContext, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, arrayMove, rectSortingStrategy, sortableKeyboardCoordinates, useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon } from '@mantine/core';
import { IconGripVertical } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { StatsWidgetId } from '../layout/widgets';
import classes from '../dashboard.module.css';

/** The header cards with drag-to-reorder (dnd-kit), loaded only in edit mode. */
export function SortableStatsGrid(props: {
  order: StatsWidgetId[];
  cards: Record<StatsWidgetId, ReactNode>;
  onReorder: (order: StatsWidgetId[]) => void;
  titles: Record<StatsWidgetId, string>;
}) {
  const { order, cards, onReorder, titles } = props;
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = order.indexOf(active.id as StatsWidgetId);
    const to = order.indexOf(over.id as StatsWidgetId);
    if (from >= 0 && to >= 0) onReorder(arrayMove(order, from, to));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={order} strategy={rectSortingStrategy}>
        <div className={classes.statsGrid} data-testid="header-stats">
          {order.map((id) => (
            <SortableStat key={id} id={id} title={titles[id]}>
              {cards[id]}
            </SortableStat>
          ))}
        </div>
      </SortableContext>
    </DndContext>
  );
}

function SortableStat({ id, title, children }: { id: StatsWidgetId; title: string; children: ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  return (
    <div
      ref={setNodeRef}
      className={classes.statItem}
      style={{ transform: CSS.Translate.toString(transform), transition, zIndex: isDragging ? 2 : undefined }}
      data-dragging={isDragging || undefined}
      data-testid={`stat-${id}`}
    >
      <ActionIcon
        ref={setActivatorNodeRef}
        variant="subtle"
        color="gray"
        size="sm"
        className={classes.statHandle}
        aria-label={`Move ${title}`}
        data-screenshot-ignore
        {...attributes}
        {...listeners}
      >
        <IconGripVertical size={14} aria-hidden="true" />
      </ActionIcon>
      {children}
    </div>
  );
}
