import { ActionIcon, Card, Group, Title } from '@mantine/core';
import { ArmedTooltip } from '../../../components/armed-tooltip';
import { IconGripVertical, IconX } from '@tabler/icons-react';
import { createContext, useContext, type ReactNode } from 'react';
import { useUiModes } from '../../../lib/ui-modes';
import classes from '../dashboard.module.css';

/** Set by the sortable grid around each widget: the drag handle's props, or null when dragging is off. */
export interface DragHandleProps {
  ref: (element: HTMLElement | null) => void;
  attributes: Record<string, unknown>;
  listeners: Record<string, unknown> | undefined;
}
export const DragHandleContext = createContext<DragHandleProps | null>(null);

function DragHandle({ label }: { label: string }) {
  const handle = useContext(DragHandleContext);
  if (!handle) return null;
  return (
    <ActionIcon
      ref={handle.ref}
      variant="subtle"
      color="gray"
      size="sm"
      className={classes.dragHandle}
      aria-label={`Move ${label}`}
      data-screenshot-ignore
      {...handle.attributes}
      {...handle.listeners}
    >
      <IconGripVertical size={16} aria-hidden="true" />
    </ActionIcon>
  );
}

interface WidgetCardProps {
  /** The widget's layout id (remove button, test id). */
  widgetId: string;
  title: string;
  /** The search palette's anchor, if this widget has one. */
  anchor?: string;
  actions?: ReactNode;
  onRemove?: () => void;
  children: ReactNode;
}

export function WidgetCard({ widgetId, title, anchor, actions, onRemove, children }: WidgetCardProps) {
  // Edit mode is when widgets are moved and removed; outside it the handles and × stay hidden.
  const { editMode } = useUiModes();
  return (
    <Card withBorder radius="md" padding="md" id={anchor} className={classes.widget} data-testid={`widget-${widgetId}`}>
      <Group justify="space-between" wrap="nowrap" gap="xs" mb="sm">
        <Group gap={4} wrap="nowrap" miw={0}>
          <DragHandle label={title} />
          <Title order={2} size="h5" className={classes.widgetTitle}>
            {title}
          </Title>
        </Group>
        <Group gap={4} wrap="nowrap">
          {actions}
          {onRemove && editMode && (
            <ArmedTooltip label="Remove widget" withArrow>
              <ActionIcon variant="subtle" color="gray" size="sm" onClick={onRemove} aria-label={`Remove ${title}`} data-screenshot-ignore>
                <IconX size={14} aria-hidden="true" />
              </ActionIcon>
            </ArmedTooltip>
          )}
        </Group>
      </Group>
      {children}
    </Card>
  );
}
