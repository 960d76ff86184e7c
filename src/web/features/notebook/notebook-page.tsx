import { Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconPlus, IconSearch } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PageHeader } from '../../components/page-header';
import { ApiError } from '../../lib/api';
import type { Note } from '../../shared/api';
import { foldersQuery, noteQuery, tagsQuery, type NoteFilter } from './api';
import { FolderColumn, type FolderSelection } from './components/folder-column';
import { NoteEditor } from './components/note-editor';
import { NotesList } from './components/notes-list';
import classes from './notebook.module.css';

// Mobile under 768 px.
const MOBILE_QUERY = '(max-width: 47.99em)';

/**
 * Notebook: search and New; folders; the notes list with its tag filter; the
 * editor. What is open lives in the address (?folder=, ?tag=, ?q=, ?note=), so a reload or a link from a trade's
 * page opens the same note.
 */
export function NotebookPage() {
  const [params, setParams] = useSearchParams();
  const isMobile = useMediaQuery(MOBILE_QUERY, false, { getInitialValueInEffect: false });
  const folder: FolderSelection = params.get('folder') ?? 'all';
  const tagId = params.get('tag') ?? undefined;
  const noteParam = params.get('note');
  const [search, setSearch] = useState(params.get('q') ?? '');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 250);
  const [newCount, setNewCount] = useState(0);
  const [dirty, setDirty] = useState(false);
  const [pending, setPending] = useState<null | (() => void)>(null);
  const [reloads, setReloads] = useState(0);
  const discardDraft = useRef<(() => void) | null>(null);
  const queryClient = useQueryClient();

  const update = useCallback(
    (changes: Record<string, string | null | undefined>, options: { replace?: boolean } = {}) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value) next.set(key, value);
            else next.delete(key);
          }
          return next;
        },
        { replace: options.replace ?? false },
      ),
    [setParams],
  );

  // Typing a search replaces the address rather than adding a history entry per word.
  useEffect(() => {
    if ((params.get('q') ?? '') !== debouncedSearch) update({ q: debouncedSearch || null }, { replace: true });
  }, [debouncedSearch, params, update]);

  const filter: NoteFilter = { folderId: folder === 'all' ? undefined : folder, tagId, q: params.get('q') || undefined };
  const selectedId = noteParam && noteParam !== 'new' ? noteParam : null;
  const note = useQuery({ ...noteQuery(selectedId ?? ''), enabled: selectedId !== null });
  const folders = useQuery(foldersQuery);
  const tags = useQuery(tagsQuery);

  // 'Failed to load notebook'.
  const failed = folders.isError || tags.isError || (note.isError && !(note.error instanceof ApiError && note.error.status === 404));
  const reported = useRef(false);
  useEffect(() => {
    if (failed && !reported.current) notifications.show({ color: 'red', message: 'Failed to load notebook' });
    reported.current = failed;
  }, [failed]);

  /** Runs `action` now, or after the trader agrees to drop unsaved changes. */
  const guard = (action: () => void) => {
    if (dirty) setPending(() => action);
    else action();
  };

  const openNew = () =>
    guard(() => {
      setNewCount((n) => n + 1);
      update({ note: 'new' });
    });
  const openNote = (id: string) => guard(() => update({ note: id }));
  const selectFolder = (selection: FolderSelection) => update({ folder: selection === 'all' ? null : selection });

  const onSaved = (saved: Note) => {
    if (saved.id !== selectedId) update({ note: saved.id });
  };

  const editorFolder = folder !== 'all' && folder !== 'none' ? folder : null;
  const showEditor = !isMobile || noteParam !== null;
  const showLists = !isMobile || noteParam === null;

  let editor;
  if (selectedId && note.isPending) {
    editor = (
      <Group justify="center" p="xl">
        <Loader role="status" aria-label="Loading note" />
      </Group>
    );
  } else if (selectedId && note.isError) {
    editor = (
      <Stack align="flex-start" gap="xs" data-testid="note-missing">
        <Text>{note.error instanceof ApiError && note.error.status === 404 ? 'This note no longer exists.' : 'The note could not be loaded.'}</Text>
        <Button variant="light" onClick={() => update({ note: null })}>
          Back to notes
        </Button>
      </Stack>
    );
  } else {
    const loaded = selectedId ? (note.data ?? null) : null;
    editor = (
      <NoteEditor
        key={loaded ? `${loaded.id}-${reloads}` : `new-${newCount}`}
        note={loaded}
        defaultFolderId={editorFolder}
        onSaved={onSaved}
        onDeleted={() => update({ note: null })}
        onDirtyChange={setDirty}
        onReload={async () => {
          if (selectedId) await queryClient.fetchQuery({ ...noteQuery(selectedId), staleTime: 0 });
          setReloads((n) => n + 1);
        }}
        discardRef={discardDraft}
      />
    );
  }

  return (
    <>
      <PageHeader title="Notebook" />
      <Group gap="sm" mb="md" wrap="nowrap">
        <TextInput
          aria-label="Search notes"
          placeholder="Search notes..."
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          maxLength={200}
          className={classes.grow}
          data-testid="notes-search"
        />
        <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={openNew} data-testid="note-new">
          New
        </Button>
      </Group>
      <div className={classes.layout}>
        {showLists && <FolderColumn selected={folder} onSelect={selectFolder} />}
        {showLists && <NotesList filter={filter} selectedId={selectedId} onSelect={openNote} onTagFilter={(id) => update({ tag: id ?? null })} />}
        {showEditor && (
          <Stack gap="xs" miw={0}>
            {isMobile && (
              <Button
                variant="subtle"
                leftSection={<IconArrowLeft size={16} aria-hidden="true" />}
                onClick={() => guard(() => update({ note: null }))}
                w="fit-content"
                px={0}
              >
                All notes
              </Button>
            )}
            {editor}
          </Stack>
        )}
      </div>
      <ConfirmDialog
        opened={pending !== null}
        title="Discard unsaved changes?"
        confirmLabel="Discard"
        danger
        onCancel={() => setPending(null)}
        onConfirm={() => {
          const action = pending;
          setPending(null);
          setDirty(false);
          // Discarded on purpose: no draft of them is kept either.
          discardDraft.current?.();
          action?.();
        }}
      >
        This note has changes that are not saved. Leave it without saving them?
      </ConfirmDialog>
    </>
  );
}
