import { Badge, Button, Group, Loader, ScrollArea, Select, Stack, Text, UnstyledButton } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { LIST_ROW_TAGS, noteDisplayTitle } from '../../../../domain/notes';
import { PnlValue } from '../../../components/pnl-value';
import type { NoteSummary } from '../../../shared/api';
import { useTraderTime } from '../../../shared/trader-clock';
import { notesListQuery, tagsQuery, type NoteFilter } from '../api';
import classes from '../notebook.module.css';

function NoteRow({ note, selected, onSelect }: { note: NoteSummary; selected: boolean; onSelect: () => void }) {
  const title = noteDisplayTitle(note.title);
  const clock = useTraderTime();
  return (
    <UnstyledButton
      className={classes.noteRow}
      data-selected={selected || undefined}
      aria-current={selected ? 'true' : undefined}
      onClick={onSelect}
      data-testid="note-row"
      data-note-id={note.id}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text fw={600} size="sm" truncate c={note.title.trim() ? undefined : 'dimmed'} data-testid="note-row-title">
          {title}
        </Text>
        {note.net_pl !== null && <PnlValue value={note.net_pl} size="xs" data-testid="note-row-pnl" />}
      </Group>
      <Group gap={6} mt={4} wrap="nowrap">
        <Text size="xs" c="dimmed" data-testid="note-row-date">
          {/* MM/dd/yyyy, the day on the trader's clock. */}
          {clock.format(note.updated_at, 'MM/dd/yyyy')}
        </Text>
        {note.stocks_traded && (
          <Text size="xs" c="dimmed" truncate>
            · {note.stocks_traded}
          </Text>
        )}
      </Group>
      {note.tags.length > 0 && (
        <Group gap={4} mt={6} wrap="nowrap" data-testid="note-row-tags">
          {note.tags.slice(0, LIST_ROW_TAGS).map((tag) => (
            <Badge key={tag.id} size="xs" variant="light" tt="none" maw={110}>
              {tag.name}
            </Badge>
          ))}
        </Group>
      )}
    </UnstyledButton>
  );
}

/**
 * The notes list with its tag filter (All tags) and 'No notes found'; rows show the title
 * (or Untitled), net P&L, date and up to 3 tags. Pages of 50 load as the trader scrolls.
 */
export function NotesList({
  filter,
  selectedId,
  onSelect,
  onTagFilter,
}: {
  filter: NoteFilter;
  selectedId: string | null;
  onSelect: (id: string) => void;
  onTagFilter: (tagId: string | undefined) => void;
}) {
  const tags = useQuery(tagsQuery);
  const notes = useInfiniteQuery(notesListQuery(filter));
  const rows = notes.data?.pages.flatMap((page) => page.notes) ?? [];

  return (
    <Stack gap="xs" className={classes.listColumn} data-testid="notes-list">
      <Select
        aria-label="Filter by tag"
        data={[{ value: '', label: 'All tags' }, ...(tags.data ?? []).map((t) => ({ value: t.id, label: t.name }))]}
        value={filter.tagId ?? ''}
        onChange={(value) => onTagFilter(value || undefined)}
        allowDeselect={false}
        searchable
        nothingFoundMessage="No tags"
        data-testid="tag-filter"
      />
      <ScrollArea.Autosize
        mah={{ base: 360, md: 'calc(100dvh - 250px)' }}
        type="auto"
        scrollbars="y"
        onBottomReached={() => notes.hasNextPage && !notes.isFetchingNextPage && void notes.fetchNextPage()}
      >
        {notes.isPending ? (
          <Group justify="center" p="md">
            <Loader size="sm" role="status" aria-label="Loading notes" />
          </Group>
        ) : notes.isError ? (
          <Text size="sm" c="var(--mantine-color-error)" p="sm">
            {notes.error.message}
          </Text>
        ) : rows.length === 0 ? (
          <Text size="sm" c="dimmed" p="sm" data-testid="notes-empty">
            No notes found
          </Text>
        ) : (
          <Stack gap={2}>
            {rows.map((note) => (
              <NoteRow key={note.id} note={note} selected={note.id === selectedId} onSelect={() => onSelect(note.id)} />
            ))}
            {notes.hasNextPage && (
              <Button variant="subtle" size="xs" onClick={() => void notes.fetchNextPage()} loading={notes.isFetchingNextPage}>
                Load more
              </Button>
            )}
          </Stack>
        )}
      </ScrollArea.Autosize>
    </Stack>
  );
}
