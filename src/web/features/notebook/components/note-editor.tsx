import { Anchor, Badge, Button, CloseButton, Group, Paper, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconExternalLink, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useReducer, useRef, type ClipboardEvent, type DragEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { DraftEvent } from '../../../../contract/notes';
import { formatDay } from '../../../../domain/dates';
import { formatUsd, toCents } from '../../../../domain/money';
import { NOTE_TEMPLATES, NOTE_TITLE_MAX, TAG_NAME_MAX, normalizeName } from '../../../../domain/notes';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DraftNotice, SavedElsewhereNotice } from '../../../components/draft-notice';
import { ImageAttachments } from '../../../components/image-attachments';
import { MarkdownView } from '../../../components/markdown-view';
import { PnlValue } from '../../../components/pnl-value';
import { ApiError } from '../../../lib/api';
import { isSignedOutError, SIGNED_OUT_WORDS } from '../../../lib/session-expiry';
import { postEventStream, readEventStream } from '../../../lib/sse';
import { queryKeys, uploadAttachment, type Note, type TagRef } from '../../../shared/api';
import { useTraderTime } from '../../../shared/trader-clock';
import { useDraft } from '../../../shared/use-draft';
import { foldersQuery, tagsQuery, useDeleteNote, useSaveNote, useUpsertTag } from '../api';
import classes from '../notebook.module.css';
import { applyMarkdownAction, imageMarkdown, insertBlock, placeDraft, type EditorState, type MarkdownAction } from '../markdown-toolbar';
import { MarkdownToolbar } from './markdown-toolbar';
import {
  initNoteEditor,
  isNoteWords,
  noteChanges,
  reduceNoteEditor,
  sameWords,
  savedElsewhereAt,
  toNoteRequest,
  wordsOf,
  type NoteWords,
} from './note-editor-state';
import { NamePrompt } from './name-prompt';
import { WriteWithAi } from './write-with-ai';

interface NoteEditorProps {
  /** The saved note, or null for a new one (created on its first Save). */
  note: Note | null;
  /** The folder a new note goes in (the one the trader is looking at). */
  defaultFolderId: string | null;
  onSaved: (note: Note) => void;
  onDeleted: () => void;
  onDirtyChange: (dirty: boolean) => void;
  /** Reads the note again and opens it afresh (the trader chose the version saved elsewhere). */
  onReload: () => Promise<void>;
  /** Set to a function that drops the editor's unsaved words for good (the trader chose to discard them). */
  discardRef?: { current: (() => void) | null };
}

function StatBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="xs" className={classes.statBox}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      {children}
    </Paper>
  );
}

/**
 * The notebook's editor: title, caption, Save; the linked trade's figures; tags; templates; the markdown toolbar
 * acting on the selection; the 18-row body with a sanitized preview; images by URL, file, paste or drop; the
 * linked-trade line. What it holds is kept in a reducer (./note-editor-state.ts).
 */
export function NoteEditor({ note, defaultFolderId, onSaved, onDeleted, onDirtyChange, onReload, discardRef }: NoteEditorProps) {
  const [state, dispatch] = useReducer(reduceNoteEditor, null, () => initNoteEditor(note, defaultFolderId));
  const { words, base, savedElsewhere, drafting } = state;
  const { title, content, tags } = words;
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const pendingSelection = useRef<{ start: number; end: number } | null>(null);

  const queryClient = useQueryClient();
  const clock = useTraderTime();
  const folders = useQuery(foldersQuery);
  const allTags = useQuery(tagsQuery);
  const save = useSaveNote();
  const remove = useDeleteNote();
  const upsertTag = useUpsertTag();

  // A new, untouched note goes in whichever folder the trader opens before saving it.
  useEffect(() => {
    if (!note) dispatch({ type: 'follow-folder', folderId: defaultFolderId });
  }, [note, defaultFolderId]);

  const { dirty, unsaved } = noteChanges(state, note === null);
  useEffect(() => onDirtyChange(unsaved), [unsaved, onDirtyChange]);

  // The words are kept in this browser until saved, and come back with the note.
  const draft = useDraft<NoteWords>({
    editor: 'note',
    recordId: note?.id ?? 'new',
    value: words,
    dirty: unsaved,
    base,
    saved: { value: wordsOf(note, defaultFolderId), version: note?.updated_at ?? null },
    isValue: isNoteWords,
    same: sameWords,
    restore: (kept, keptBase) => dispatch({ type: 'restore-draft', kept, base: keptBase, saved: wordsOf(note, defaultFolderId) }),
  });

  if (discardRef) discardRef.current = draft.forget;

  // Saved elsewhere while this editor sat untouched (the list refetched it): show that version.
  useEffect(() => {
    if (note) dispatch({ type: 'refetched', words: wordsOf(note, null), updatedAt: note.updated_at });
    // Only when the saved version moves on.
  }, [note?.updated_at]);

  // After a toolbar action or an insert, put the selection where the transform says, once the text has rendered.
  useLayoutEffect(() => {
    const selection = pendingSelection.current;
    const element = bodyRef.current;
    if (!selection || !element) return;
    pendingSelection.current = null;
    element.focus();
    element.setSelectionRange(selection.start, selection.end);
  });

  const editorState = (): EditorState => {
    const element = bodyRef.current;
    return { value: content, selectionStart: element?.selectionStart ?? content.length, selectionEnd: element?.selectionEnd ?? content.length };
  };

  const applyState = (next: EditorState) => {
    pendingSelection.current = { start: next.selectionStart, end: next.selectionEnd };
    dispatch({ type: 'edit', patch: { content: next.value } });
  };

  // 'Write with AI': the draft streams in at the caret; the body is read-only until it ends or Stop.
  const draftAbort = useRef<AbortController | null>(null);
  useEffect(() => () => draftAbort.current?.abort(), []);

  const startDraft = async (instruction: string) => {
    const { before, lead, trail, after } = placeDraft(editorState());
    const controller = new AbortController();
    draftAbort.current = controller;
    dispatch({ type: 'draft-start' });
    let written = '';
    const body = { title, content, instruction, trade_id: note?.trade_id ?? null };
    try {
      for await (const event of readEventStream<DraftEvent>(await postEventStream('/api/notes/draft', body, controller.signal))) {
        if (event.type === 'text') written += event.delta;
        else if (event.type === 'restart') written = '';
        else if (event.type === 'error') notifications.show({ color: 'red', title: 'Write with AI', message: event.message });
        if (event.type === 'text' || event.type === 'restart')
          dispatch({ type: 'edit', patch: { content: before + lead + written + trail + after } });
      }
      const end = (before + lead + written).length;
      pendingSelection.current = { start: end, end };
      dispatch({ type: 'edit', patch: { content: before + lead + written + trail + after } });
    } catch (error) {
      if (!controller.signal.aborted) {
        notifications.show({
          color: 'red',
          title: 'Write with AI',
          message: error instanceof ApiError ? error.message : 'Error connecting to AI API. Please try again later.',
        });
      }
    } finally {
      draftAbort.current = null;
      dispatch({ type: 'draft-end' });
    }
  };

  const runAction = (action: MarkdownAction) => !drafting && applyState(applyMarkdownAction(action, editorState()));
  const insert = (block: string) => !drafting && applyState(insertBlock(editorState(), block));

  const doSave = (over: string | null = base) => {
    if (save.isPending) return;
    const sent = { ...words };
    save.mutate(
      { id: note?.id ?? null, draft: toNoteRequest(sent), base: over },
      {
        onSuccess: (saved) => {
          dispatch({ type: 'saved', sent, updatedAt: saved.updated_at });
          draft.markSaved(sent);
          notifications.show({ color: 'teal', message: 'Saved' });
          onSaved(saved);
        },
        onError: (error) => {
          const elsewhere = savedElsewhereAt(error);
          if (elsewhere) dispatch({ type: 'refused-saved-elsewhere', updatedAt: elsewhere });
          else notifications.show({ color: 'red', title: 'Save failed', message: isSignedOutError(error) ? SIGNED_OUT_WORDS.notes : 'Save failed' });
        },
      },
    );
  };

  const loadSaved = async () => {
    draft.forget();
    dispatch({ type: 'load-saved' });
    await onReload();
  };

  useHotkeys([['mod+S', () => doSave()]], []);

  const addTag = (tag: TagRef) => dispatch({ type: 'add-tag', tag });

  const createTag = (raw: string) => {
    dispatch({ type: 'open', dialog: null });
    const name = normalizeName(raw);
    if (!name) return;
    upsertTag.mutate(name, {
      onSuccess: addTag,
      onError: () => notifications.show({ color: 'red', message: 'Failed to create tag' }),
    });
  };

  /** Pasted or dropped image files: uploaded to the saved note and shown where the caret is. */
  const uploadIntoBody = async (files: File[]) => {
    const images = files.filter((f) => f.type.startsWith('image/'));
    if (images.length === 0) return false;
    if (!note) {
      notifications.show({ color: 'yellow', message: 'Save the note first to attach images.' });
      return true;
    }
    for (const file of images) {
      try {
        const attachment = await uploadAttachment({ noteId: note.id }, file);
        insert(imageMarkdown(attachment.url, file.name.replace(/\.[a-z0-9]+$/i, '') || 'image'));
        notifications.show({ color: 'teal', message: 'Image attached' });
        void queryClient.invalidateQueries({ queryKey: queryKeys.notes.detail(note.id) });
      } catch (error) {
        notifications.show({ color: 'red', title: 'Attach failed', message: error instanceof Error ? error.message : 'Attach failed' });
      }
    }
    return true;
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...event.clipboardData.files];
    if (files.some((f) => f.type.startsWith('image/'))) {
      event.preventDefault();
      void uploadIntoBody(files);
    }
  };

  const onDrop = (event: DragEvent<HTMLTextAreaElement>) => {
    const files = [...event.dataTransfer.files];
    if (files.some((f) => f.type.startsWith('image/'))) {
      event.preventDefault();
      void uploadIntoBody(files);
    }
  };

  const availableTags = (allTags.data ?? []).filter((t) => !tags.some((own) => own.id === t.id));
  const trade = note?.trade ?? null;

  return (
    <Stack gap="sm" className={classes.editor} data-testid="note-editor">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={2} className={classes.titleBlock}>
          <TextInput
            aria-label="Title"
            placeholder="Untitled"
            value={title}
            onChange={(e) => dispatch({ type: 'edit', patch: { title: e.currentTarget.value } })}
            maxLength={NOTE_TITLE_MAX}
            variant="unstyled"
            size="xl"
            classNames={{ input: classes.titleInput }}
            data-testid="note-title"
          />
          <Text size="xs" c="dimmed" data-testid="note-caption">
            {note ? `Updated ${clock.format(note.updated_at, 'PPpp')}` : 'New note'}
          </Text>
        </Stack>
        <Group gap="xs" wrap="nowrap" ml="auto">
          {note && (
            <Button
              variant="subtle"
              color="red"
              onClick={() => dispatch({ type: 'open', dialog: 'confirm-delete' })}
              aria-label="Delete note"
              px="xs"
              data-testid="note-delete"
            >
              <IconTrash size={16} aria-hidden="true" />
            </Button>
          )}
          <Button onClick={() => doSave()} loading={save.isPending} disabled={!dirty && note !== null} data-testid="note-save">
            Save
          </Button>
        </Group>
      </Group>

      {/* The refused save says it all while it waits for the trader's choice. */}
      {!savedElsewhere && <DraftNotice draft={draft} what="note" />}
      {savedElsewhere && (
        <SavedElsewhereNotice what="note" busy={save.isPending} onOverwrite={() => doSave(savedElsewhere)} onLoadSaved={() => void loadSaved()} />
      )}

      {trade && (
        <Anchor component={Link} to={`/trade/${trade.id}`} size="sm" data-testid="note-view-trade">
          View trade details
        </Anchor>
      )}

      <SimpleGrid cols={{ base: 2 }} spacing="xs" maw={420}>
        <StatBox label="Net P&L">
          <PnlValue value={note?.net_pl ?? null} size="lg" data-testid="note-net-pl" />
        </StatBox>
        <StatBox label="Stocks traded">
          <Text size="lg" fw={600} truncate data-testid="note-stocks">
            {note?.stocks_traded || '-'}
          </Text>
        </StatBox>
      </SimpleGrid>

      <Group gap="xs" wrap="wrap" align="center" data-testid="note-tags">
        {tags.map((tag) => (
          <Badge
            key={tag.id}
            variant="light"
            tt="none"
            size="lg"
            maw={220}
            pr={2}
            rightSection={
              <CloseButton size="xs" aria-label={`Remove tag ${tag.name}`} onClick={() => dispatch({ type: 'remove-tag', tagId: tag.id })} />
            }
            data-testid="note-tag"
          >
            {tag.name}
          </Badge>
        ))}
        <Select
          aria-label="Add tag"
          placeholder="Add tag"
          data={availableTags.map((t) => ({ value: t.id, label: t.name }))}
          value={null}
          onChange={(id) => {
            const tag = availableTags.find((t) => t.id === id);
            if (tag) addTag(tag);
          }}
          searchable
          nothingFoundMessage="No other tags"
          size="xs"
          w={150}
          data-testid="note-add-tag"
        />
        <Button size="xs" variant="default" onClick={() => dispatch({ type: 'open', dialog: 'new-tag' })} data-testid="note-new-tag">
          + Tag
        </Button>
        <Select
          aria-label="Folder"
          data={[{ value: '', label: 'No folder' }, ...(folders.data ?? []).map((f) => ({ value: f.id, label: f.name }))]}
          value={words.folder_id ?? ''}
          onChange={(value) => dispatch({ type: 'choose-folder', folderId: value || null })}
          allowDeselect={false}
          size="xs"
          w={170}
          ml="auto"
          data-testid="note-folder"
        />
      </Group>

      <Group gap="xs" wrap="wrap" data-testid="note-templates">
        {NOTE_TEMPLATES.map((template) => (
          <Button
            key={template.id}
            size="xs"
            variant="light"
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => insert(template.body)}
            disabled={drafting}
            data-testid={`template-${template.id}`}
          >
            {template.label}
          </Button>
        ))}
        <WriteWithAi drafting={drafting} onDraft={(instruction) => void startDraft(instruction)} onStop={() => draftAbort.current?.abort()} />
      </Group>

      <MarkdownToolbar onAction={runAction} />
      <Textarea
        ref={bodyRef}
        aria-label="Note body"
        placeholder="Write your note in markdown. Paste or drop a screenshot to attach it."
        rows={18}
        value={content}
        readOnly={drafting}
        aria-busy={drafting || undefined}
        onChange={(e) => dispatch({ type: 'edit', patch: { content: e.currentTarget.value } })}
        onKeyDown={(event) => {
          if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
          const key = event.key.toLowerCase();
          if (key === 'b' || key === 'i') {
            event.preventDefault();
            runAction(key === 'b' ? 'bold' : 'italic');
          }
        }}
        onPaste={onPaste}
        onDrop={onDrop}
        classNames={{ input: classes.body }}
        data-testid="note-body"
      />

      <Paper withBorder radius="md" p="sm">
        <Title order={3} size="h6" c="dimmed" mb={6}>
          Preview
        </Title>
        {content.trim() ? (
          <MarkdownView testId="note-preview">{content}</MarkdownView>
        ) : (
          <Text size="sm" c="dimmed" data-testid="note-preview">
            Nothing to preview yet.
          </Text>
        )}
      </Paper>

      <ImageAttachments
        target={note ? { noteId: note.id } : null}
        attachments={note?.attachments ?? []}
        invalidate={note ? [queryKeys.notes.detail(note.id)] : []}
        text={{ addLabel: 'Attach Image', added: 'Image attached', failed: 'Attach failed', disabledHint: 'Save the note to attach images.' }}
        testId="note-attachments"
      />

      <Text size="sm" c="dimmed" data-testid="note-linked-trade">
        {trade ? (
          <>
            Linked trade:{' '}
            <Anchor component={Link} to={`/trade/${trade.id}`} size="sm">
              {trade.symbol} · {formatDay(trade.date, 'MM/dd/yyyy')} · {formatUsd(toCents(trade.pnl))}
            </Anchor>{' '}
            <IconExternalLink size={12} aria-hidden="true" />
          </>
        ) : (
          'Not linked to a trade. Link a note from a trade’s page.'
        )}
      </Text>

      <NamePrompt
        opened={state.dialog === 'new-tag'}
        title="New tag"
        label="Tag name"
        maxLength={TAG_NAME_MAX}
        confirmLabel="Add"
        onSubmit={createTag}
        onClose={() => dispatch({ type: 'open', dialog: null })}
      />
      <ConfirmDialog
        opened={state.dialog === 'confirm-delete'}
        title="Delete this note?"
        confirmLabel="Delete note"
        danger
        loading={remove.isPending}
        onCancel={() => dispatch({ type: 'open', dialog: null })}
        onConfirm={() =>
          note &&
          remove.mutate(note.id, {
            onSuccess: () => {
              dispatch({ type: 'open', dialog: null });
              onDirtyChange(false);
              onDeleted();
            },
            onError: () => notifications.show({ color: 'red', message: 'Failed to delete note' }),
          })
        }
      >
        The note, its tags on it and its images are deleted. This cannot be undone.
      </ConfirmDialog>
    </Stack>
  );
}
