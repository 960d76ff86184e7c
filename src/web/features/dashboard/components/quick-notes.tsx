import { Card, Group, Text, Textarea, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { preferencesQuery } from '../../../shared/api';
import { useUpdatePreferences } from '../api';
import classes from '../dashboard.module.css';

const SAVE_DELAY_MS = 800;
/** Spec part 1 §2.4: the default text. */
const DEFAULT_NOTE = 'Note:';

/** Quick notes, kept on the server per user (user_preferences.quick_note), saved shortly after typing stops. */
export function QuickNotes() {
  const { data: preferences } = useQuery(preferencesQuery);
  const save = useUpdatePreferences({ errorMessage: 'Failed to save notes' });
  const [text, setText] = useState<string | null>(null);
  const [state, setState] = useState<'idle' | 'saving' | 'saved'>('idle');
  // Unsaved text is still sent when the dashboard unmounts (navigating away within the delay).
  const flush = useDebouncedCallback(
    (value: string) => {
      setState('saving');
      save.mutate({ quick_note: value }, { onSuccess: () => setState('saved'), onError: () => setState('idle') });
    },
    { delay: SAVE_DELAY_MS, flushOnUnmount: true },
  );

  const value = text ?? preferences?.quick_note ?? DEFAULT_NOTE;
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
      <Textarea
        aria-label="Quick notes"
        // Grows with its text from 2 to 8 lines by CSS (field-sizing): the script autosize measured a hidden copy,
        // forcing a layout of the whole dashboard in the middle of its first render (issue 14: ~160 ms on a phone).
        rows={2}
        classNames={{ input: classes.quickNote }}
        maxLength={20_000}
        value={value}
        onChange={(e) => {
          const next = e.currentTarget.value;
          setText(next);
          setState('idle');
          flush(next);
        }}
      />
    </Card>
  );
}
