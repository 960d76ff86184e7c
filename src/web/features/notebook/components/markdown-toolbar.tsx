import { ActionIcon, Group, Tooltip } from '@mantine/core';
import {
  IconBlockquote,
  IconBold,
  IconCode,
  IconH1,
  IconH2,
  IconItalic,
  IconLink,
  IconList,
  IconListCheck,
  IconListNumbers,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { MarkdownAction } from '../markdown-toolbar';

/** H1, H2, bold, italic, code, quote, bullet list, numbered list, checkbox, link. */
const BUTTONS: Array<{ action: MarkdownAction; label: string; icon: ReactNode; shortcut?: string }> = [
  { action: 'h1', label: 'Heading 1', icon: <IconH1 size={16} aria-hidden="true" /> },
  { action: 'h2', label: 'Heading 2', icon: <IconH2 size={16} aria-hidden="true" /> },
  { action: 'bold', label: 'Bold', icon: <IconBold size={16} aria-hidden="true" />, shortcut: 'Ctrl+B' },
  { action: 'italic', label: 'Italic', icon: <IconItalic size={16} aria-hidden="true" />, shortcut: 'Ctrl+I' },
  { action: 'code', label: 'Code', icon: <IconCode size={16} aria-hidden="true" /> },
  { action: 'quote', label: 'Quote', icon: <IconBlockquote size={16} aria-hidden="true" /> },
  { action: 'bullet', label: 'Bullet list', icon: <IconList size={16} aria-hidden="true" /> },
  { action: 'numbered', label: 'Numbered list', icon: <IconListNumbers size={16} aria-hidden="true" /> },
  { action: 'checkbox', label: 'Checkbox', icon: <IconListCheck size={16} aria-hidden="true" /> },
  // Ctrl+K is the search palette's everywhere, the editor included: the link has no shortcut.
  { action: 'link', label: 'Link', icon: <IconLink size={16} aria-hidden="true" /> },
];

export function MarkdownToolbar({ onAction }: { onAction: (action: MarkdownAction) => void }) {
  return (
    <Group gap={2} role="toolbar" aria-label="Formatting" data-testid="markdown-toolbar">
      {BUTTONS.map(({ action, label, icon, shortcut }) => (
        <Tooltip key={action} label={shortcut ? `${label} (${shortcut})` : label} withArrow openDelay={300}>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={label}
            // Keeps the text area's selection: the click must not move focus before the action reads it.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onAction(action)}
            data-testid={`md-${action}`}
          >
            {icon}
          </ActionIcon>
        </Tooltip>
      ))}
    </Group>
  );
}
