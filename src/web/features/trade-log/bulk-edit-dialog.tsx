import { Autocomplete, Button, Group, Modal, Select, Stack, TagsInput, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { BulkEditInput, BulkEditResult } from '../../../contract/trades';
import { accountsQuery } from '../../shared/api';
import { playbooksQuery } from '../playbooks/api';
import { restoreTrades, UNDO_WINDOW_MS, useBulkEditTrades } from './api';
import { describeError, toastError, toastSuccess } from './toast';
import { toastWithUndo } from './undo-toast';
import { useTradeOptions } from './use-trade-options';

export type BulkEditKind = BulkEditInput['action']['kind'];

const TITLES: Record<BulkEditKind, string> = {
  playbook: 'Assign Playbook',
  setup: 'Set Setup',
  add_tags: 'Add Tags',
  remove_tags: 'Remove Tags',
  move: 'Move to Account',
};

/** The menu's words for each bulk action, in its order. */
export const BULK_EDIT_KINDS: ReadonlyArray<{ kind: BulkEditKind; label: string }> = (Object.keys(TITLES) as BulkEditKind[]).map((kind) => ({
  kind,
  label: TITLES[kind],
}));

const NO_PLAYBOOK = 'none';

/** What the toast says the change did; a move names the trades it left where they were (duplicates). */
function describeDone(kind: BulkEditKind, result: BulkEditResult): string {
  const n = `${result.updated} trade(s)`;
  switch (kind) {
    case 'playbook':
      return `Playbook set on ${n}`;
    case 'setup':
      return `Setup set on ${n}`;
    case 'add_tags':
      return `Tags added to ${n}`;
    case 'remove_tags':
      return `Tags removed from ${n}`;
    case 'move': {
      const skipped = result.skipped_duplicates.length;
      return `Moved ${n}${skipped > 0 ? `; ${skipped} left where they were: the account already holds the same imported trade` : ''}`;
    }
  }
}

/**
 * One change for the selected trades, all or none: a playbook, a setup, tags added or removed, or a move to another
 * account (a trade the account already holds from an import stays where it is). The toast that follows offers Undo,
 * which writes the trades back exactly as they were.
 */
export function BulkEditDialog({
  kind,
  ids,
  onClose,
  onDone,
}: {
  kind: BulkEditKind | null;
  ids: readonly string[];
  onClose: () => void;
  onDone: () => void;
}) {
  const opened = kind !== null;
  const client = useQueryClient();
  const bulk = useBulkEditTrades();
  const options = useTradeOptions();
  const playbooks = useQuery({ ...playbooksQuery, enabled: kind === 'playbook' });
  const accounts = useQuery({ ...accountsQuery, enabled: kind === 'move' });
  const [choice, setChoice] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const count = ids.length;

  const reset = () => {
    setChoice(null);
    setText('');
    setTags([]);
  };
  const close = () => {
    reset();
    onClose();
  };

  const action = (): BulkEditInput['action'] | null => {
    switch (kind) {
      case 'playbook':
        return choice === null ? null : { kind, playbook_id: choice === NO_PLAYBOOK ? null : choice };
      case 'setup':
        return { kind, setup: text.trim() };
      case 'add_tags':
      case 'remove_tags':
        return tags.length === 0 ? null : { kind, tags };
      case 'move':
        return choice === null ? null : { kind, account_id: choice };
      default:
        return null;
    }
  };
  const ready = action();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || kind === null) return;
    bulk.mutate(
      { ids: [...ids], action: ready },
      {
        onSuccess: (result) => {
          reset();
          onDone();
          if (result.updated === 0) {
            toastSuccess(describeDone(kind, result));
            return;
          }
          toastWithUndo(describeDone(kind, result), {
            duration: UNDO_WINDOW_MS,
            onUndo: () =>
              void restoreTrades(client, result.before).then(
                () => toastSuccess('Change undone'),
                (error: unknown) => toastError('Failed to undo the change', describeError(error)),
              ),
            onGone: () => {},
          });
        },
        onError: (error) => toastError(`Failed to change the selected trades`, describeError(error)?.replace(/^action(\.\w+)?: /, '')),
      },
    );
  };

  return (
    <Modal opened={opened} onClose={close} title={kind ? TITLES[kind] : ''} centered data-testid="bulk-edit-modal">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">{`The ${count} selected trade(s), all or none. Undo puts them back as they were.`}</Text>
          {kind === 'playbook' && (
            <Select
              label="Playbook"
              placeholder="Choose a playbook"
              data={[{ value: NO_PLAYBOOK, label: 'No playbook' }, ...(playbooks.data ?? []).map((p) => ({ value: p.id, label: p.name }))]}
              value={choice}
              onChange={setChoice}
              searchable
              comboboxProps={{ withinPortal: true }}
              data-autofocus
              data-testid="bulk-edit-playbook"
            />
          )}
          {kind === 'move' && (
            <Select
              label="Account"
              placeholder="Choose an account"
              data={(accounts.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
              value={choice}
              onChange={setChoice}
              searchable
              data-autofocus
              data-testid="bulk-edit-account"
            />
          )}
          {kind === 'setup' && (
            <Autocomplete
              label="Setup"
              description="Leave it empty to clear the setup."
              data={options.trade_type}
              value={text}
              onChange={setText}
              maxLength={100}
              data-autofocus
              data-testid="bulk-edit-setup"
            />
          )}
          {(kind === 'add_tags' || kind === 'remove_tags') && (
            <TagsInput
              label="Tags"
              data={options.tag}
              value={tags}
              onChange={setTags}
              maxTags={50}
              clearable
              data-autofocus
              data-testid="bulk-edit-tags"
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={bulk.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={bulk.isPending} disabled={count === 0 || ready === null} data-testid="bulk-edit-confirm">
              Apply to {count} trade(s)
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
