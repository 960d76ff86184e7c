import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { ApiError } from '../lib/api';
import { toastError, toastSuccess } from '../lib/toast';
import { useTradeFieldUpdate } from '../shared/api';

/** A trade's notes are at most 20,000 characters (as in the Add/Edit dialog). */
const NOTES_MAX = 20_000;

/**
 * A trade's notes on their own (view, then edit: save or
 * cancel; 'Notes updated successfully', 'Failed to update notes' with a description). Saving is optimistic: the
 * note shows at once and its old text comes back if the server refuses.
 */
export function TradeNotesEditor({ tradeId, notes, label }: { tradeId: string; notes: string; label: string }) {
  const [draft, setDraft] = useState<string | null>(null);
  const update = useTradeFieldUpdate();
  const editing = draft !== null;

  const save = () => {
    if (draft === null) return;
    const text = draft;
    setDraft(null);
    if (text === notes) return;
    update.mutate(
      { id: tradeId, patch: { notes: text } },
      {
        onSuccess: () => toastSuccess('Notes updated successfully'),
        onError: (error) => {
          toastError(
            'Failed to update notes',
            error instanceof ApiError && !/^Request failed/.test(error.message) ? error.message : 'Your note was not saved. Please try again.',
          );
          // What was typed is not lost: the editor opens again with it.
          setDraft(text);
        },
      },
    );
  };

  if (editing) {
    return (
      <Stack gap="xs" data-testid="trade-notes-editor">
        <Textarea
          aria-label={`Notes of ${label}`}
          value={draft}
          onChange={(e) => setDraft(e.currentTarget.value)}
          autosize
          minRows={3}
          maxRows={10}
          maxLength={NOTES_MAX}
          data-autofocus
          autoFocus
          data-testid="trade-notes-input"
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" size="xs" onClick={() => setDraft(null)} data-testid="trade-notes-cancel">
            Cancel
          </Button>
          <Button size="xs" onClick={save} data-testid="trade-notes-save">
            Save
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs" data-testid="trade-notes-view">
      <Text size="sm" c={notes ? undefined : 'dimmed'} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="trade-notes-text">
        {notes || 'No notes yet.'}
      </Text>
      <Button
        variant="subtle"
        size="compact-xs"
        leftSection={<IconPencil size={14} aria-hidden="true" />}
        onClick={() => setDraft(notes)}
        aria-label={`Edit notes of ${label}`}
        style={{ flexShrink: 0 }}
        data-testid="trade-notes-edit"
      >
        Edit
      </Button>
    </Group>
  );
}
