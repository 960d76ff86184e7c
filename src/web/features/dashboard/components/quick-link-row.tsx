import { ActionIcon, Anchor, Group, Text } from '@mantine/core';
import { IconGripVertical, IconPencil, IconTrash } from '@tabler/icons-react';
import type { CSSProperties, HTMLAttributes } from 'react';
import { QuickLinkIcon } from '../../../components/quick-link-icon';
import type { QuickLink } from '../../../shared/api';
import classes from '../dashboard.module.css';

export interface LinkDrag {
  setNodeRef: (node: HTMLElement | null) => void;
  setActivatorNodeRef: (node: HTMLElement | null) => void;
  style: CSSProperties;
  handleProps: HTMLAttributes<HTMLElement>;
}

/** One link's row; `drag` is the handle's wiring once the drag code has loaded (./quick-links-sortable). */
export function LinkRow({ link, onEdit, onDelete, drag }: { link: QuickLink; onEdit: () => void; onDelete: () => void; drag?: LinkDrag }) {
  return (
    <Group ref={drag?.setNodeRef} gap={4} wrap="nowrap" className={classes.quickLink} style={drag?.style} data-testid="quick-link">
      <ActionIcon
        ref={drag?.setActivatorNodeRef}
        variant="subtle"
        color="gray"
        size="sm"
        aria-label={`Move ${link.title}`}
        {...drag?.handleProps}
        data-testid="quick-link-handle"
      >
        <IconGripVertical size={14} aria-hidden="true" />
      </ActionIcon>
      <Anchor
        href={link.url}
        target="_blank"
        rel="noopener noreferrer"
        className={classes.quickLinkAnchor}
        title={link.url}
        data-testid="quick-link-anchor"
      >
        <Group gap={8} wrap="nowrap" component="span">
          <QuickLinkIcon icon={link.icon} />
          <Text span size="sm" truncate>
            {link.title}
          </Text>
        </Group>
      </Anchor>
      <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Edit ${link.title}`} onClick={onEdit} data-testid="quick-link-edit">
        <IconPencil size={14} aria-hidden="true" />
      </ActionIcon>
      <ActionIcon variant="subtle" color="red" size="sm" aria-label={`Delete ${link.title}`} onClick={onDelete} data-testid="quick-link-delete">
        <IconTrash size={14} aria-hidden="true" />
      </ActionIcon>
    </Group>
  );
}
