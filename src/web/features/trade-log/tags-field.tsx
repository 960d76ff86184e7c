import { Badge, Button, CloseButton, Group, Input, Stack, TextInput, UnstyledButton } from '@mantine/core';
import { useState, type KeyboardEvent } from 'react';
import { addTradeOption } from '../../../domain/trades';
import { useTradePreferenceChange } from './api';
import { OptionManager } from './option-manager';
import { toastError, toastSuccess } from './toast';

interface TagsFieldProps {
  value: string[];
  onChange: (tags: string[]) => void;
  suggestions: readonly string[];
}

/**
 * Tags on a trade: a blank name gives 'Please enter a tag name', a duplicate 'Tag "X" already exists'.
 * A tag that is not yet a suggestion is also saved as one ('Tag "X" added successfully').
 */
export function TagsField({ value, onChange, suggestions }: TagsFieldProps) {
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const change = useTradePreferenceChange();

  const add = (name = draft) => {
    const result = addTradeOption('tag', value, name);
    if (!result.ok) {
      setError(result.ok === false && !result.ignored ? result.error : 'Please enter a tag name');
      return;
    }
    onChange(result.options);
    setDraft('');
    setError(null);
    const known = suggestions.some((s) => s.toLocaleLowerCase('en-US') === result.added.toLocaleLowerCase('en-US'));
    if (!known) {
      change.mutate(
        { action: 'add', type: 'tag', value: result.added },
        {
          onSuccess: (answer) => toastSuccess(answer.message),
          onError: () => toastError('Failed to add tag'),
        },
      );
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    }
  };

  const needle = draft.trim().toLocaleLowerCase('en-US');
  const shown = suggestions
    .filter((s) => !value.some((t) => t.toLocaleLowerCase('en-US') === s.toLocaleLowerCase('en-US')))
    .filter((s) => s.toLocaleLowerCase('en-US').includes(needle))
    .slice(0, 10);

  return (
    <Input.Wrapper label="Tags" error={error}>
      <Stack gap={6}>
        {value.length > 0 && (
          <Group gap={6} data-testid="form-tags">
            {value.map((tag) => (
              <Badge
                key={tag}
                variant="light"
                tt="none"
                radius="sm"
                size="lg"
                pr={4}
                rightSection={<CloseButton size="xs" aria-label={`Remove tag ${tag}`} onClick={() => onChange(value.filter((t) => t !== tag))} />}
              >
                {tag}
              </Badge>
            ))}
          </Group>
        )}
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <TextInput
            value={draft}
            onChange={(e) => {
              setDraft(e.currentTarget.value);
              if (error) setError(null);
            }}
            onKeyDown={onKeyDown}
            placeholder="Add a tag"
            aria-label="Add a tag"
            style={{ flex: 1 }}
            maxLength={100}
            error={Boolean(error)}
            data-testid="tag-input"
          />
          <Button variant="default" onClick={() => add()} data-testid="tag-add">
            Add
          </Button>
          <OptionManager kind="tag" options={suggestions} />
        </Group>
        {shown.length > 0 && (
          <Group gap={4} aria-label="Tag suggestions">
            {shown.map((s) => (
              <UnstyledButton key={s} onClick={() => add(s)} aria-label={`Add tag ${s}`}>
                <Badge variant="default" tt="none" radius="sm" size="sm" style={{ cursor: 'pointer' }}>
                  + {s}
                </Badge>
              </UnstyledButton>
            ))}
          </Group>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
