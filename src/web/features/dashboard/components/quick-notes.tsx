import { Card, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DraftNotice } from '../../../components/draft-notice';
import { preferencesQuery } from '../../../shared/api';
import { useDraft } from '../../../shared/use-draft';
import { useUpdatePreferences } from '../api';
import classes from '../dashboard.module.css';

const SAVE_DELAY_MS = 800;
/** The default text. */
const DEFAULT_NOTE = 'Note:';

const isText = (value: unknown): value is string => typeof value === 'string';
const sameText = (a: string, b: string) => a === b;

/** Quick notes, kept on the server per user (user_preferences.quick_note), saved shortly after typing stops. */
export function QuickNotes() {
  const preferences = useQuery(preferencesQuery);
  const save = useUpdatePreferences({ errorMessage: 'Failed to save notes' });
  const [text, setText] = useState<string | null>(null);
  // The saved text these words grew from: quick notes carry no time of their own.
  const [base, setBase] = useState<string | null>(null);
  const [state, setState] = useState<'idle' | 'saving' | 'saved'>('idle');
  const saved = preferences.data?.quick_note ?? DEFAULT_NOTE;
  // Unsaved text is still sent when the dashboard unmounts (navigating away within the delay).
  const flush = useDebouncedCallback(
    (value: string) => {
      setState('saving');
      save.mutate(
        { quick_note: value },
        {
          onSuccess: () => {
            setState('saved');
            setBase(value);
            draft.markSaved(value);
          },
          onError: () => setState('idle'),
        },
      );
    },
    { delay: SAVE_DELAY_MS, flushOnUnmount: true },
  );

  const value = text ?? saved;
  // Kept in this browser until the server has it: a closed tab, a lost connection or an ended session loses nothing.
  const draft = useDraft<string>({
    editor: 'quick-note',
    recordId: preferences.data ? 'dashboard' : null,
    value,
    dirty: text !== null && text !== saved,
    base: base ?? saved,
    saved: { value: saved, version: saved },
    isValue: isText,
    same: sameText,
    restore: (kept, keptBase) => {
      setText(kept);
      setBase(keptBase);
      // Words put back are sent again at once; the saved version put back needs nothing.
      if (kept !== saved) flush(kept);
    },
  });

  return (
    <Card withBorder radius="md" padding="md" id="quick-notes" data-testid="quick-notes">
      <Group justify="space-between" mb={6}>
        <Title order={2} size="h5">
          Quick Notes
        </Title>
        <Text size="xs" c="dimmed" aria-live="polite" data-testid="quick-notes-state">
          {state === 'saving' ? 'Saving…' : state === 'saved' ? 'Saved' : ''}
        </Text>
      </Group>
      <Stack gap={6}>
        {(draft.status === 'conflict' || draft.status === 'restored') && <DraftNotice draft={draft} what="quick note" compact />}
        <Textarea
          aria-label="Quick notes"
          // Grows with its text from 2 to 8 lines by CSS (field-sizing): the script autosize measured a hidden copy,
          // forcing a layout of the whole dashboard in the middle of its first render (~160 ms on a phone).
          rows={2}
          classNames={{ input: classes.quickNote }}
          maxLength={20_000}
          value={value}
          onChange={(e) => {
            const next = e.currentTarget.value;
            if (text === null) setBase(saved);
            setText(next);
            setState('idle');
            flush(next);
          }}
        />
      </Stack>
    </Card>
  );
}
