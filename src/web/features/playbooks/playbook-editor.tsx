import { ActionIcon, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { PlaybookDto } from '../../../contract/playbooks';
import { ApiError } from '../../lib/api';
import { toastSuccess } from '../../lib/toast';
import { queryKeys } from '../../shared/api';
import { savePlaybook } from './api';
import { PlaybookImages } from './playbook-images';

interface DraftRule {
  /** The stored rule's id (its ticks are kept), or a key of a new one. */
  key: string;
  id?: string;
  text: string;
}

let nextKey = 0;
const newRule = (text = ''): DraftRule => ({ key: `new-${nextKey++}`, text });

/**
 * Create or edit a playbook: its name, description, entry criteria and checklist of rules, in order. A rule moved or
 * reworded keeps its id, and with it the trades' ticks.
 */
export function PlaybookEditor({
  playbook,
  opened,
  onClose,
  onSaved,
}: {
  playbook: PlaybookDto | null;
  opened: boolean;
  onClose: () => void;
  onSaved?: (saved: PlaybookDto) => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={playbook ? 'Edit playbook' : 'New playbook'} size="lg" centered>
      {opened && <EditorForm playbook={playbook} onClose={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function EditorForm({ playbook, onClose, onSaved }: { playbook: PlaybookDto | null; onClose: () => void; onSaved?: (saved: PlaybookDto) => void }) {
  const client = useQueryClient();
  const [name, setName] = useState(playbook?.name ?? '');
  const [description, setDescription] = useState(playbook?.description ?? '');
  const [criteria, setCriteria] = useState(playbook?.entry_criteria ?? '');
  const [rules, setRules] = useState<DraftRule[]>(() =>
    playbook ? playbook.rules.map((r) => ({ key: r.id, id: r.id, text: r.text })) : [newRule()],
  );
  const save = useMutation({
    mutationFn: () =>
      savePlaybook(playbook?.id ?? null, {
        name,
        description,
        entry_criteria: criteria,
        rules: rules.filter((r) => r.text.trim() !== '').map((r) => (r.id ? { id: r.id, text: r.text } : { text: r.text })),
      }),
    onSuccess: async (saved) => {
      toastSuccess(playbook ? 'Playbook saved' : 'Playbook created');
      await Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.playbooks.all }),
        client.invalidateQueries({ queryKey: queryKeys.reports.all }),
      ]);
      onSaved?.(saved);
      onClose();
    },
  });
  const error = save.error instanceof ApiError ? save.error : null;
  const fieldError = (field: string) =>
    error && (error.body as { fields?: Array<{ field: string }> } | null)?.fields?.some((f) => f.field.split('.')[0] === field)
      ? error.message.replace(/^[\w.]+: /, '')
      : undefined;
  const move = (index: number, by: number) =>
    setRules((list) => {
      const next = [...list];
      const [rule] = next.splice(index, 1);
      next.splice(index + by, 0, rule!);
      return next;
    });

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm">
        <TextInput
          label="Name"
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          maxLength={100}
          error={fieldError('name')}
          data-testid="playbook-name-input"
          data-autofocus
        />
        <Textarea
          label="Description"
          autosize
          minRows={2}
          maxRows={6}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          data-testid="playbook-description-input"
        />
        <Textarea
          label="Entry criteria"
          autosize
          minRows={2}
          maxRows={6}
          value={criteria}
          onChange={(e) => setCriteria(e.currentTarget.value)}
          data-testid="playbook-criteria-input"
        />
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            Rules
          </Text>
          {rules.map((rule, index) => (
            <Group key={rule.key} gap={6} wrap="nowrap" data-testid="playbook-rule-row">
              <Text size="sm" c="dimmed" w={20} ta="right">
                {index + 1}.
              </Text>
              <TextInput
                style={{ flex: 1 }}
                aria-label={`Rule ${index + 1}`}
                value={rule.text}
                maxLength={500}
                onChange={(e) => {
                  const text = e.currentTarget.value;
                  setRules((list) => list.map((r) => (r.key === rule.key ? { ...r, text } : r)));
                }}
                data-testid="playbook-rule-input"
              />
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={`Move rule ${index + 1} up`}
                disabled={index === 0}
                onClick={() => move(index, -1)}
              >
                <IconArrowUp size={16} aria-hidden="true" />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={`Move rule ${index + 1} down`}
                disabled={index === rules.length - 1}
                onClick={() => move(index, 1)}
              >
                <IconArrowDown size={16} aria-hidden="true" />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Remove rule ${index + 1}`}
                onClick={() => setRules((list) => list.filter((r) => r.key !== rule.key))}
              >
                <IconTrash size={16} aria-hidden="true" />
              </ActionIcon>
            </Group>
          ))}
          {fieldError('rules') && (
            <Text size="xs" c="red">
              {fieldError('rules')}
            </Text>
          )}
          <Button
            variant="light"
            size="xs"
            w="fit-content"
            leftSection={<IconPlus size={14} aria-hidden="true" />}
            onClick={() => setRules((list) => [...list, newRule()])}
            data-testid="playbook-add-rule"
          >
            Add rule
          </Button>
        </Stack>
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            Images
          </Text>
          <PlaybookImages playbookId={playbook?.id ?? null} testId="playbook-editor-images" />
        </Stack>
        {error && !fieldError('name') && !fieldError('rules') && (
          <Text size="sm" c="red">
            {error.message}
          </Text>
        )}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="playbook-save">
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
