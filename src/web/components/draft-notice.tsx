import { Alert, Button, Group, Text } from '@mantine/core';
import { IconDeviceFloppy, IconHistory } from '@tabler/icons-react';
import type { Draft } from '../shared/use-draft';
import { useTraderTime } from '../shared/trader-clock';

/** A yellow alert's own title colour is 2.7:1 on its light background: the text colour reads (WCAG AA). */
const READABLE_TITLE = { title: { color: 'var(--mantine-color-text)' } };

/**
 * What an editor says about its unsaved words, the same in every editor: a draft put back, a
 * draft older than the saved version (the trader chooses), or words kept in this browser while unsaved.
 */
export function DraftNotice<V>({ draft, what, compact = false }: { draft: Draft<V>; what: string; compact?: boolean }) {
  const clock = useTraderTime();
  const when = draft.keptAt === null ? '' : clock.format(new Date(draft.keptAt), 'MMM d, HH:mm');
  if (draft.status === 'conflict') {
    return (
      <Alert
        color="yellow"
        variant="light"
        icon={<IconHistory size={18} aria-hidden="true" />}
        title={`Unsaved draft from ${when}`}
        styles={READABLE_TITLE}
        data-testid="draft-conflict"
      >
        <Text size="sm" mb="xs">
          This {what} was saved somewhere else (another tab or device) after your draft was written. Which words should stay?
        </Text>
        <Group gap="xs">
          <Button size="xs" onClick={draft.useKept} data-testid="draft-use">
            Use my draft
          </Button>
          <Button size="xs" variant="default" onClick={draft.discard} data-testid="draft-keep-saved">
            Keep the saved version
          </Button>
        </Group>
      </Alert>
    );
  }
  if (draft.status === 'restored') {
    return (
      <Alert
        color="blue"
        variant="light"
        icon={<IconHistory size={18} aria-hidden="true" />}
        p={compact ? 'xs' : undefined}
        data-testid="draft-restored"
      >
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text size="sm">Unsaved draft from {when} restored. It is not saved yet.</Text>
          <Button size="compact-xs" variant="subtle" color="gray" onClick={draft.discard} data-testid="draft-discard">
            Discard draft
          </Button>
        </Group>
      </Alert>
    );
  }
  if (draft.status === 'kept') {
    return (
      <Text size="xs" c="dimmed" role="status" data-testid="draft-kept">
        <IconDeviceFloppy size={12} aria-hidden="true" style={{ verticalAlign: '-1px' }} /> Unsaved changes kept in this browser ({when})
      </Text>
    );
  }
  return null;
}

/** A save refused because the record was saved elsewhere since the text began (409 note-changed): the trader chooses. */
export function SavedElsewhereNotice({
  what,
  onOverwrite,
  onLoadSaved,
  busy,
}: {
  what: string;
  onOverwrite: () => void;
  onLoadSaved: () => void;
  busy?: boolean;
}) {
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconHistory size={18} aria-hidden="true" />}
      title="Saved somewhere else"
      styles={READABLE_TITLE}
      data-testid="saved-elsewhere"
    >
      <Text size="sm" mb="xs">
        This {what} was saved in another tab or device after you started editing it. Your words are kept here; which version should stay?
      </Text>
      <Group gap="xs">
        <Button size="xs" onClick={onOverwrite} loading={busy} data-testid="saved-elsewhere-overwrite">
          Save mine over it
        </Button>
        <Button size="xs" variant="default" onClick={onLoadSaved} disabled={busy} data-testid="saved-elsewhere-load">
          Load the saved version
        </Button>
      </Group>
    </Alert>
  );
}
