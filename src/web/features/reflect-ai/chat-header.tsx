import { ActionIcon, Button, Group, Menu, Switch, TextInput, Title, Tooltip } from '@mantine/core';
import { IconDots, IconEraser, IconHistory, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { CHAT_TITLE_MAX } from '../../../domain/chat';
import classes from './reflect-ai.module.css';

interface ChatHeaderProps {
  title: string;
  busy: boolean;
  hasMessages: boolean;
  deepThink: boolean;
  onDeepThink: (on: boolean) => void;
  onNewChat: () => void;
  onHistory: () => void;
  onRename: (title: string) => Promise<boolean>;
  onClear: () => void;
  onDelete: () => void;
}

/**
 * The conversation's title (click to rename), New Chat, Chat History, clear and delete, and the DeepThink toggle.
 * Changing conversations waits while an answer streams (Stop first): the answer belongs to the one it started in.
 */
export function ChatHeader({ title, busy, hasMessages, deepThink, onDeepThink, onNewChat, onHistory, onRename, onClear, onDelete }: ChatHeaderProps) {
  const [editing, setEditing] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // Escape cancels; the input's blur as it goes must not save what was typed.
  const cancelled = useRef(false);

  const startEditing = () => {
    cancelled.current = false;
    setEditing(title);
  };

  const save = async () => {
    const next = editing?.trim() ?? '';
    if (!next || next === title) {
      setEditing(null);
      return;
    }
    setSaving(true);
    const ok = await onRename(next);
    setSaving(false);
    if (ok) setEditing(null);
  };

  return (
    <div className={classes.header}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Title order={1} size="h3">
          ReflectAI
        </Title>
        <Group gap={6} wrap="nowrap">
          <Tooltip label={busy ? 'Stop the answer first' : 'New Chat'} withArrow>
            <Button
              variant="default"
              size="xs"
              leftSection={<IconPlus size={16} aria-hidden="true" />}
              onClick={onNewChat}
              disabled={busy}
              data-testid="new-chat"
            >
              New Chat
            </Button>
          </Tooltip>
          <Tooltip label="Chat History" withArrow>
            <ActionIcon variant="default" size={30} onClick={onHistory} disabled={busy} aria-label="Chat History" data-testid="open-history">
              <IconHistory size={18} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="default" size={30} aria-label="Chat options" data-testid="chat-menu">
                <IconDots size={18} aria-hidden="true" />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconPencil size={16} aria-hidden="true" />} onClick={startEditing}>
                Rename chat
              </Menu.Item>
              <Menu.Item leftSection={<IconEraser size={16} aria-hidden="true" />} onClick={onClear} disabled={busy || !hasMessages}>
                Clear chat
              </Menu.Item>
              <Menu.Item leftSection={<IconTrash size={16} aria-hidden="true" />} color="red" onClick={onDelete} disabled={busy}>
                Delete chat
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Group>
      <Group justify="space-between" wrap="wrap" gap="xs" mt={6}>
        <div className={classes.sessionTitle}>
          {editing !== null ? (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                void save();
              }}
            >
              <TextInput
                size="xs"
                value={editing}
                onChange={(event) => setEditing(event.currentTarget.value)}
                onKeyDown={(event) => {
                  if (event.key !== 'Escape') return;
                  cancelled.current = true;
                  setEditing(null);
                }}
                onBlur={() => {
                  if (cancelled.current) cancelled.current = false;
                  else void save();
                }}
                maxLength={CHAT_TITLE_MAX}
                aria-label="Chat title"
                disabled={saving}
                autoFocus
                data-testid="rename-input"
              />
            </form>
          ) : (
            <Group gap={4} wrap="nowrap">
              <Title order={2} size="md" fw={600} lineClamp={1} className={classes.titleText} onClick={startEditing} data-testid="session-title">
                {title}
              </Title>
              <Tooltip label="Rename chat" withArrow>
                <ActionIcon variant="subtle" color="gray" size="sm" onClick={startEditing} aria-label="Rename chat" data-testid="rename-chat">
                  <IconPencil size={14} aria-hidden="true" />
                </ActionIcon>
              </Tooltip>
            </Group>
          )}
        </div>
        <Switch label="DeepThink" checked={deepThink} onChange={(event) => onDeepThink(event.currentTarget.checked)} data-testid="deepthink-toggle" />
      </Group>
    </div>
  );
}
