import { ActionIcon, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { ArmedTooltip } from '../../../components/armed-tooltip';
import { notifications } from '@mantine/notifications';
import { IconDots, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { LazyMenu } from '../../../components/lazy-menu';
import { ApiError } from '../../../lib/api';
import { useAfterFirstPaint } from '../../../lib/use-after-first-paint';
import { quickLinksQuery, type QuickLink } from '../../../shared/api';
import { useQuickLinkMutations, type QuickLinkBody } from '../quick-links-api';
import { WidgetCard } from './widget-card';
import { LinkRow } from './quick-link-row';
import { withAllStyles } from '../../../lib/all-styles';

// Drag to reorder (dnd-kit) loads once the dashboard has painted; until then the rows are the same without it.
// The add / edit form loads when first opened.
const QuickLinkDialog = lazy(withAllStyles(() => import('./quick-link-dialog').then((m) => ({ default: m.QuickLinkDialog }))));
const SortableLinks = lazy(() => import('./quick-links-sortable').then((m) => ({ default: m.SortableLinks })));

const message = (error: unknown, fallback: string) =>
  error instanceof ApiError && !/^Request failed/.test(error.message) ? error.message : fallback;

/**
 * Quick links (a dashboard widget).
 * Ordered by position, dragged to reorder, opened in a new tab without access to this one.
 */
export function QuickLinksWidget({ widgetId, onRemove }: { widgetId: string; onRemove: () => void }) {
  const links = useQuery(quickLinksQuery);
  const { create, update, remove, reorder, importDefaults } = useQuickLinkMutations();
  const [editing, setEditing] = useState<null | { link: QuickLink | null }>(null);
  const dragReady = useAfterFirstPaint();
  const [editingUsed, setEditingUsed] = useState(false);
  if (editing !== null && !editingUsed) setEditingUsed(true);
  const list = links.data ?? [];

  const onReorder = (ids: string[]) =>
    reorder.mutate(ids, { onError: () => notifications.show({ color: 'red', message: 'Failed to reorder quick links' }) });
  const onDelete = (link: QuickLink) =>
    remove.mutate(link.id, { onError: () => notifications.show({ color: 'red', message: 'Failed to delete quick link' }) });
  const rows = (
    <Stack gap={2} data-testid="quick-links">
      {list.map((link) => (
        <LinkRow key={link.id} link={link} onEdit={() => setEditing({ link })} onDelete={() => onDelete(link)} />
      ))}
    </Stack>
  );

  const save = (body: QuickLinkBody) => {
    const done = {
      onSuccess: () => setEditing(null),
      onError: (e: unknown) => notifications.show({ color: 'red', message: message(e, 'Failed to save quick link') }),
    };
    if (editing?.link) update.mutate({ id: editing.link.id, ...body }, done);
    else create.mutate(body, done);
  };

  const addDefaults = () =>
    importDefaults.mutate(undefined, {
      onSuccess: (result) =>
        notifications.show({
          color: 'teal',
          message: result.imported === 0 ? 'You already have the default links' : `Added ${result.imported} default links`,
        }),
      onError: (e) => notifications.show({ color: 'red', message: message(e, 'Failed to import default links') }),
    });

  return (
    <WidgetCard
      widgetId={widgetId}
      title="Quick Links"
      onRemove={onRemove}
      actions={
        <>
          <ArmedTooltip label="Add link" withArrow>
            <ActionIcon
              variant="subtle"
              size="sm"
              aria-label="Add quick link"
              onClick={() => setEditing({ link: null })}
              data-testid="quick-link-add"
            >
              <IconPlus size={14} aria-hidden="true" />
            </ActionIcon>
          </ArmedTooltip>
          <LazyMenu
            target={(props) => (
              <ActionIcon variant="subtle" color="gray" size="sm" aria-label="Quick link options" {...props}>
                <IconDots size={14} aria-hidden="true" />
              </ActionIcon>
            )}
            choices={[{ key: 'defaults', label: 'Import default links', onClick: addDefaults }]}
          />
        </>
      }
    >
      {links.isPending ? (
        <Loader size="sm" role="status" aria-label="Loading quick links" />
      ) : list.length === 0 ? (
        <Stack gap="xs" align="flex-start" data-testid="quick-links-empty">
          <Text size="sm" c="dimmed">
            No quick links yet: keep your charting, calendar and broker sites one click away.
          </Text>
          <Group gap="xs">
            <Button size="xs" onClick={() => setEditing({ link: null })}>
              Add link
            </Button>
            <Button size="xs" variant="default" onClick={addDefaults} loading={importDefaults.isPending}>
              Import default links
            </Button>
          </Group>
        </Stack>
      ) : dragReady ? (
        <Suspense fallback={rows}>
          <SortableLinks links={list} onReorder={onReorder} onEdit={(link) => setEditing({ link })} onDelete={onDelete} />
        </Suspense>
      ) : (
        rows
      )}
      {editingUsed && (
        <Suspense fallback={null}>
          <QuickLinkDialog editing={editing} onClose={() => setEditing(null)} onSubmit={save} saving={create.isPending || update.isPending} />
        </Suspense>
      )}
    </WidgetCard>
  );
}
