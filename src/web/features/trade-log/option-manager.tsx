import { ActionIcon, Badge, Button, CloseButton, Group, Popover, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { useState, type KeyboardEvent } from 'react';
import { addTradeOption } from '../../../domain/trades';
import { useTradePreferenceChange, type PreferenceKind } from './api';
import { describeError, toastError, toastSuccess } from './toast';

const TITLES: Record<PreferenceKind, { title: string; noun: string; placeholder: string }> = {
  trade_type: { title: 'Manage Trade Types', noun: 'trade type', placeholder: 'New trade type' },
  session: { title: 'Manage Sessions', noun: 'session', placeholder: 'New session' },
  tag: { title: 'Manage Tag Suggestions', noun: 'tag', placeholder: 'New tag' },
};

/**
 * The manage-types / manage-sessions popovers of the add dialog, and the same for tag
 * suggestions. Duplicates and types in use are refused with the spec's messages (the server decides).
 */
export function OptionManager({ kind, options }: { kind: PreferenceKind; options: readonly string[] }) {
  const [opened, setOpened] = useState(false);
  const [draft, setDraft] = useState('');
  const change = useTradePreferenceChange();
  const { title, noun, placeholder } = TITLES[kind];

  const add = async () => {
    const local = addTradeOption(kind, options, draft);
    // Blank type and session names are ignored.
    if (!local.ok && local.ignored) return;
    if (!local.ok) {
      toastError(local.error);
      return;
    }
    try {
      const answer = await change.mutateAsync({ action: 'add', type: kind, value: local.added });
      toastSuccess(answer.message);
      setDraft('');
    } catch (error) {
      toastError(describeError(error) ?? `Failed to add ${noun}`);
    }
  };

  const remove = async (value: string) => {
    try {
      const answer = await change.mutateAsync({ action: 'remove', type: kind, value });
      toastSuccess(answer.message);
    } catch (error) {
      // 409: 'Cannot remove "X" - it's being used by existing trades'.
      toastError(describeError(error) ?? `Failed to remove ${noun}`);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void add();
    }
  };

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={280} shadow="md" trapFocus withinPortal>
      <Popover.Target>
        <ActionIcon variant="default" size={36} onClick={() => setOpened((o) => !o)} aria-label={title} data-testid={`manage-${kind}`}>
          <IconSettings size={18} aria-hidden="true" />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown data-testid={`manage-${kind}-popover`}>
        <Text fw={600} size="sm" mb="xs">
          {title}
        </Text>
        {/* The × buttons keep clear of the scrollbar (it hid them). */}
        <ScrollArea.Autosize mah={200} type="auto" scrollbars="y" offsetScrollbars="y">
          <Stack gap={4}>
            {options.map((option) => (
              <Group key={option} justify="space-between" wrap="nowrap" gap="xs">
                <Badge variant="light" tt="none" size="md" radius="sm" maw={200}>
                  {option}
                </Badge>
                <CloseButton size="sm" aria-label={`Remove ${option}`} onClick={() => void remove(option)} disabled={change.isPending} />
              </Group>
            ))}
            {options.length === 0 && (
              <Text size="sm" c="dimmed">
                None yet
              </Text>
            )}
          </Stack>
        </ScrollArea.Autosize>
        <Group gap="xs" mt="sm" wrap="nowrap">
          <TextInput
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
            onKeyDown={onKeyDown}
            placeholder={placeholder}
            aria-label={placeholder}
            size="xs"
            style={{ flex: 1 }}
            maxLength={100}
          />
          <Button size="xs" onClick={() => void add()} loading={change.isPending}>
            Add
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
