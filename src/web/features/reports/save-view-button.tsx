import { ActionIcon, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { IconBookmark, IconCheck, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { SavedView } from '../../../contract/saved-views';
import { SAVED_VIEW_NAME_MAX } from '../../../domain/reports/saved-views';
import { savedViewsQuery } from '../../shared/api';
import { useDeleteView, useRenameView, useSaveView } from './saved-views-api';

/**
 * "Save view": names the Reports filter on screen (its URL text) so that it opens again from the sidebar or the
 * search palette. The dialog also lists the views saved so far, to rename or delete them.
 */
export function SaveViewButton({ filter }: { filter: string }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconBookmark size={16} aria-hidden="true" />}
        onClick={() => setOpened(true)}
        data-testid="save-view-open"
      >
        Save view
      </Button>
      {opened && <SaveViewDialog filter={filter} onClose={() => setOpened(false)} />}
    </>
  );
}

function SaveViewDialog({ filter, onClose }: { filter: string; onClose: () => void }) {
  const save = useSaveView();
  const [name, setName] = useState('');
  const { data: views } = useQuery(savedViewsQuery);
  return (
    <Modal opened onClose={onClose} title="Save view" centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate(
              { name, filter },
              {
                onSuccess: (view) => {
                  notifications.show({ color: 'green', message: `Saved "${view.name}"` });
                  onClose();
                },
              },
            );
          }}
        >
          <Stack>
            <TextInput
              label="Name"
              description="Opens these filters again from the sidebar or the search (Ctrl+K)"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              maxLength={SAVED_VIEW_NAME_MAX}
              required
              data-autofocus
              error={save.error?.message}
              data-testid="save-view-name"
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending} disabled={name.trim() === ''} data-testid="save-view-submit">
                Save
              </Button>
            </Group>
          </Stack>
        </form>
        {views && views.length > 0 && (
          <Stack gap={4} data-testid="saved-view-list">
            <Text size="sm" fw={600}>
              Saved views
            </Text>
            {views.map((view) => (
              <SavedViewRow key={view.id} view={view} />
            ))}
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}

function SavedViewRow({ view }: { view: SavedView }) {
  const rename = useRenameView();
  const remove = useDeleteView();
  const [editing, setEditing] = useState<string | null>(null);
  if (editing !== null) {
    return (
      <form
        onSubmit={(event) => {
          event.preventDefault();
          rename.mutate({ id: view.id, name: editing }, { onSuccess: () => setEditing(null) });
        }}
      >
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <TextInput
            aria-label={`New name for ${view.name}`}
            value={editing}
            onChange={(e) => setEditing(e.currentTarget.value)}
            maxLength={SAVED_VIEW_NAME_MAX}
            error={rename.error?.message}
            style={{ flex: 1 }}
            size="xs"
            data-testid="saved-view-rename-input"
          />
          <ActionIcon type="submit" variant="light" aria-label="Save the name" loading={rename.isPending} disabled={editing.trim() === ''}>
            <IconCheck size={16} aria-hidden="true" />
          </ActionIcon>
        </Group>
      </form>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap" justify="space-between" data-testid="saved-view-row">
      <Text size="sm" truncate>
        {view.name}
      </Text>
      <Group gap={4} wrap="nowrap">
        <ActionIcon variant="subtle" aria-label={`Rename ${view.name}`} onClick={() => setEditing(view.name)}>
          <IconPencil size={16} aria-hidden="true" />
        </ActionIcon>
        <ActionIcon variant="subtle" color="red" aria-label={`Delete ${view.name}`} loading={remove.isPending} onClick={() => remove.mutate(view.id)}>
          <IconTrash size={16} aria-hidden="true" />
        </ActionIcon>
      </Group>
    </Group>
  );
}
