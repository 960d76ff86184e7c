import { ActionIcon, Group, Loader, Menu, NavLink, ScrollArea, Stack, Text, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDots, IconFolderFilled, IconFolderOff, IconNotes, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FOLDER_NAME_MAX, getFolderColor, normalizeName } from '../../../../domain/notes';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ApiError } from '../../../lib/api';
import type { NoteFolder } from '../../../shared/api';
import { foldersQuery, useFolderMutations } from '../api';
import classes from '../notebook.module.css';
import { NamePrompt } from './name-prompt';

/** 'all' (every note), 'none' (notes outside any folder) or a folder id. */
export type FolderSelection = 'all' | 'none' | string;

const detail = (error: unknown) => (error instanceof ApiError && !/^Request failed/.test(error.message) ? error.message : undefined);

/**
 * The folder names, a + button asking for a name (blank ignored), 'No folders', a colour per
 * folder from its id among 16. Each folder can be renamed, or deleted after saying what happens to its notes.
 */
export function FolderColumn({ selected, onSelect }: { selected: FolderSelection; onSelect: (selection: FolderSelection) => void }) {
  const folders = useQuery(foldersQuery);
  const { create, rename, remove } = useFolderMutations();
  const [prompt, setPrompt] = useState<null | { mode: 'create' } | { mode: 'rename'; folder: NoteFolder }>(null);
  const [doomed, setDoomed] = useState<NoteFolder | null>(null);

  const submitName = (raw: string) => {
    const name = normalizeName(raw);
    const current = prompt;
    setPrompt(null);
    if (!name || !current) return;
    if (current.mode === 'create') {
      create.mutate(name, {
        onSuccess: (folder) => onSelect(folder.id),
        onError: (error) => notifications.show({ color: 'red', title: detail(error) ? 'Failed' : undefined, message: detail(error) ?? 'Failed' }),
      });
    } else if (name !== current.folder.name) {
      rename.mutate(
        { id: current.folder.id, name },
        { onError: (error) => notifications.show({ color: 'red', title: detail(error) ? 'Failed' : undefined, message: detail(error) ?? 'Failed' }) },
      );
    }
  };

  const confirmDelete = () => {
    if (!doomed) return;
    const folder = doomed;
    remove.mutate(folder.id, {
      onSuccess: () => {
        setDoomed(null);
        if (selected === folder.id) onSelect('all');
      },
      onError: () => notifications.show({ color: 'red', message: 'Failed' }),
    });
  };

  const list = folders.data ?? [];
  return (
    <Stack gap={4} className={classes.folderColumn} data-testid="folder-column">
      <Group justify="space-between" wrap="nowrap" px={4}>
        <Title order={2} size="h6" tt="uppercase" c="dimmed">
          Folders
        </Title>
        <Tooltip label="New folder" withArrow>
          <ActionIcon variant="subtle" onClick={() => setPrompt({ mode: 'create' })} aria-label="New folder" data-testid="folder-add">
            <IconPlus size={16} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Group>
      <NavLink
        component="button"
        label="All notes"
        leftSection={<IconNotes size={16} aria-hidden="true" />}
        active={selected === 'all'}
        onClick={() => onSelect('all')}
        aria-current={selected === 'all' ? 'true' : undefined}
        data-testid="folder-all"
      />
      <ScrollArea.Autosize mah={{ base: 200, md: 'calc(100dvh - 320px)' }} type="auto" scrollbars="y">
        {folders.isPending ? (
          <Loader size="sm" m="sm" role="status" aria-label="Loading folders" />
        ) : list.length === 0 ? (
          <Text size="sm" c="dimmed" px="sm" py={6} data-testid="folders-empty">
            No folders
          </Text>
        ) : (
          list.map((folder) => (
            <Group key={folder.id} gap={0} wrap="nowrap" className={classes.folderRow}>
              <NavLink
                component="button"
                label={folder.name}
                description={`${folder.note_count} ${folder.note_count === 1 ? 'note' : 'notes'}`}
                leftSection={<IconFolderFilled size={16} color={getFolderColor(folder)} aria-hidden="true" />}
                active={selected === folder.id}
                onClick={() => onSelect(folder.id)}
                aria-current={selected === folder.id ? 'true' : undefined}
                data-testid="folder-item"
                data-folder-color={getFolderColor(folder)}
                className={classes.folderLink}
                classNames={{ label: classes.truncate }}
              />
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Folder actions for ${folder.name}`} data-testid="folder-menu">
                    <IconDots size={14} aria-hidden="true" />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item onClick={() => setPrompt({ mode: 'rename', folder })}>Rename</Menu.Item>
                  <Menu.Item color="red" onClick={() => setDoomed(folder)}>
                    Delete
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            </Group>
          ))
        )}
        <NavLink
          component="button"
          label="Without a folder"
          leftSection={<IconFolderOff size={16} aria-hidden="true" />}
          active={selected === 'none'}
          onClick={() => onSelect('none')}
          aria-current={selected === 'none' ? 'true' : undefined}
          data-testid="folder-none"
        />
      </ScrollArea.Autosize>

      <NamePrompt
        opened={prompt !== null}
        title={prompt?.mode === 'rename' ? 'Rename folder' : 'New folder'}
        label="Folder name"
        initial={prompt?.mode === 'rename' ? prompt.folder.name : ''}
        confirmLabel={prompt?.mode === 'rename' ? 'Rename' : 'Create'}
        maxLength={FOLDER_NAME_MAX}
        onSubmit={submitName}
        onClose={() => setPrompt(null)}
      />
      <ConfirmDialog
        opened={doomed !== null}
        title={`Delete folder "${doomed?.name ?? ''}"?`}
        confirmLabel="Delete folder"
        danger
        loading={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDoomed(null)}
      >
        {doomed && doomed.note_count > 0
          ? `Its ${doomed.note_count} ${doomed.note_count === 1 ? 'note stays' : 'notes stay'} in your notebook, without a folder. Only the folder is deleted.`
          : 'The folder is empty. Only the folder is deleted.'}
      </ConfirmDialog>
    </Stack>
  );
}
