import { Button, Group, Modal, TextInput } from '@mantine/core';
import { useState } from 'react';

interface NamePromptProps {
  opened: boolean;
  title: string;
  label: string;
  initial?: string;
  maxLength: number;
  confirmLabel?: string;
  /** Called with the name as typed; a blank one is ignored by the caller. */
  onSubmit: (name: string) => void;
  onClose: () => void;
}

/** The notebook's "asking for a name" (a folder, a tag): a small dialog rather than the browser's prompt(). */
export function NamePrompt({ opened, title, label, initial = '', maxLength, confirmLabel = 'Create', onSubmit, onClose }: NamePromptProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered size="sm">
      {opened && <NameForm label={label} initial={initial} maxLength={maxLength} confirmLabel={confirmLabel} onSubmit={onSubmit} onClose={onClose} />}
    </Modal>
  );
}

function NameForm({
  label,
  initial,
  maxLength,
  confirmLabel,
  onSubmit,
  onClose,
}: Omit<NamePromptProps, 'opened' | 'title'> & { initial: string; confirmLabel: string }) {
  const [value, setValue] = useState(initial);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(value);
      }}
    >
      <TextInput
        label={label}
        value={value}
        onChange={(e) => setValue(e.currentTarget.value)}
        maxLength={maxLength}
        data-autofocus
        data-testid="name-prompt-input"
      />
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" data-testid="name-prompt-submit">
          {confirmLabel}
        </Button>
      </Group>
    </form>
  );
}
