import { DndContext, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, arrayMove, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Stack } from '@mantine/core';
import type { QuickLink } from '../../../shared/api';
import { LinkRow } from './quick-link-row';

/** The quick links with drag to reorder (dnd-kit), loaded after the dashboard's first paint. */
export function SortableLinks(props: {
  links: QuickLink[];
  onReorder: (ids: string[]) => void;
  onEdit: (link: QuickLink) => void;
  onDelete: (link: QuickLink) => void;
}) {
  const { links, onReorder, onEdit, onDelete } = props;
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const ids = links.map((l) => l.id);
    onReorder(arrayMove(ids, ids.indexOf(String(active.id)), ids.indexOf(String(over.id))));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={links.map((l) => l.id)} strategy={verticalListSortingStrategy}>
        <Stack gap={2} data-testid="quick-links">
          {links.map((link) => (
            <SortableLink key={link.id} link={link} onEdit={() => onEdit(link)} onDelete={() => onDelete(link)} />
          ))}
        </Stack>
      </SortableContext>
    </DndContext>
  );
}

function SortableLink({ link, onEdit, onDelete }: { link: QuickLink; onEdit: () => void; onDelete: () => void }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: link.id });
  return (
    <LinkRow
      link={link}
      onEdit={onEdit}
      onDelete={onDelete}
      drag={{
        setNodeRef,
        setActivatorNodeRef,
        style: { transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.6 : 1 },
        handleProps: { ...attributes, ...listeners },
      }}
    />
  );
}
