import { Button, Card, FileButton, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type ComponentProps } from 'react';
import type { NewsImportResult } from '../../../contract/economic-calendar';
import { formatInZone } from '../../../domain/dates/clock';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useTraderTime } from '../../shared/trader-clock';
import { importedNewsQuery, useDeleteNewsEvents, useImportNewsEvents } from './news-events-api';

/** The server's limit for a calendar file. */
const MAX_BYTES = 8 * 1024 * 1024;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** 'Mar 5, 2025 – Dec 19, 2025' on the trader's clock, or one day when both are the same. */
export function formatEventRange(from: string, to: string, timeZone: string): string {
  const day = (iso: string) => formatInZone(Date.parse(iso), timeZone, 'MMM d, yyyy') ?? '';
  return day(from) === day(to) ? day(from) : `${day(from)} – ${day(to)}`;
}

/** What an import did, in a sentence for the notification. */
export function describeImport(result: NewsImportResult, timeZone: string): string {
  if (result.kept === 0) return `No high-impact USD events in this file (${plural(result.read, 'event', 'events')} read).`;
  const range = formatEventRange(result.from!, result.to!, timeZone);
  if (result.added === 0)
    return `Nothing new: the file’s ${plural(result.kept, 'high-impact USD event was', 'high-impact USD events were')} stored already (${range}).`;
  return `Added ${plural(result.added, 'high-impact USD event', 'high-impact USD events')} (${range}).`;
}

/**
 * Market Data's card for past economic calendar events: the feed only tells of the weeks the server read it, so a
 * trader imports older weeks from a file in the feed's format for the news filter to mark their older trades. The
 * events are the trader's own; they can be deleted (and imported again) at any time.
 */
export function NewsEventsCard() {
  const { timeZone } = useTraderTime();
  const imported = useQuery(importedNewsQuery);
  const importFile = useImportNewsEvents();
  const remove = useDeleteNewsEvents();
  const [deleting, setDeleting] = useState(false);
  const resetRef = useRef<() => void>(null);

  const choose = (file: File | null) => {
    resetRef.current?.();
    if (!file) return;
    if (file.size > MAX_BYTES) {
      notifications.show({ color: 'red', title: 'Failed to import events', message: `${file.name}: too large to import (limit 8 MB)` });
      return;
    }
    importFile.mutate(file, {
      onSuccess: (result) => notifications.show({ color: result.added > 0 ? 'teal' : 'blue', message: describeImport(result, timeZone) }),
      onError: (error) => notifications.show({ color: 'red', title: 'Failed to import events', message: error.message }),
    });
  };

  const confirmDelete = () =>
    remove.mutate(undefined, {
      onSuccess: (result) => {
        notifications.show({ color: 'teal', message: `Deleted ${plural(result.deleted, 'imported event', 'imported events')}` });
        setDeleting(false);
      },
      onError: () => notifications.show({ color: 'red', message: 'Failed to delete events' }),
    });

  const summary = imported.data;
  return (
    <Card withBorder radius="md" padding="md" data-testid="news-events-card">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Economic calendar events
        </Title>
        <Text size="sm">
          The news filter marks trades taken near high-impact USD news. The calendar feed only gives the weeks since this server started reading it:
          to filter older trades, import past weeks from a file in the feed’s format. The events you import are yours alone: no other trader’s filter
          reads them.
        </Text>
        <Group gap="sm" wrap="wrap">
          <FileButton
            onChange={choose}
            accept=".json,.csv,application/json,text/csv"
            resetRef={resetRef}
            inputProps={{ 'aria-label': 'Import economic calendar events', 'data-testid': 'news-file-input' } as ComponentProps<'input'>}
          >
            {(props) => (
              <Button leftSection={<IconUpload size={16} aria-hidden="true" />} loading={importFile.isPending} {...props} data-testid="import-news">
                Import events
              </Button>
            )}
          </FileButton>
          <Text size="xs" c="dimmed">
            The feed’s JSON list, or a CSV with the columns title, country, date, impact, forecast, previous (dates with their offset, as
            2025-03-05T08:30:00-05:00).
          </Text>
        </Group>
        {summary && (
          <Group gap="sm" justify="space-between" wrap="wrap">
            <Text size="sm" c={summary.count === 0 ? 'dimmed' : undefined} data-testid="news-imported">
              {summary.count === 0 || !summary.from || !summary.to
                ? 'No imported events yet.'
                : `${plural(summary.count, 'imported high-impact USD event', 'imported high-impact USD events')}, ${formatEventRange(summary.from, summary.to, timeZone)}.`}
            </Text>
            {summary.count > 0 && (
              <Button variant="light" color="red" size="xs" onClick={() => setDeleting(true)} data-testid="delete-news">
                Delete imported events
              </Button>
            )}
          </Group>
        )}
      </Stack>
      <ConfirmDialog
        opened={deleting}
        onCancel={() => setDeleting(false)}
        onConfirm={confirmDelete}
        loading={remove.isPending}
        title="Delete imported events"
        confirmLabel="Delete"
        danger
      >
        {`Delete your ${plural(summary?.count ?? 0, 'imported event', 'imported events')}? The news filter keeps the calendar feed’s events.`}
      </ConfirmDialog>
    </Card>
  );
}
