import { ActionIcon, Anchor, Button, Card, Group, Loader, Stack, Text, Textarea, TextInput, Title, Tooltip } from '@mantine/core';
import { ResultBadge } from '../trade-log/trade-cells';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { formatDay } from '../../../domain/dates';
import { formatMoney, toCents } from '../../../domain/money';
import { currencyOfContract } from '../../../domain/instruments/perpetuals';
import { NOTE_CONTENT_MAX, NOTE_TITLE_MAX, noteDisplayTitle } from '../../../domain/notes';
import { DraftNotice } from '../../components/draft-notice';
import { ImageAttachments } from '../../components/image-attachments';
import { MarkdownView } from '../../components/markdown-view';
import { pnlTone } from '../../components/pnl-value';
import { ApiError } from '../../lib/api';
import { queryKeys, type TradeDetails } from '../../shared/api';
import { useTraderTime } from '../../shared/trader-clock';
import { useDraft } from '../../shared/use-draft';
import { tradeDetailsQuery, useCreateLinkedNote } from './api';
import { FillsCard } from './fills-card';
import { TradePlaybookCard } from '../playbooks/trade-playbook-card';
import { TradeChartCard } from './trade-chart-card';
import { TradeFields } from './trade-fields';
import { ShareButton } from '../sharing';

function NotFound() {
  return (
    <Stack align="flex-start" gap="sm" data-testid="trade-not-found">
      <title>Trade not found · Edgebook</title>
      <Title order={1} size="h2">
        Trade not found
      </Title>
      <Text c="dimmed">There is no such trade in your journal. It may have been deleted.</Text>
      <Button component={Link} to="/trade-log" variant="light" leftSection={<IconArrowLeft size={16} aria-hidden="true" />}>
        Back to Trade Log
      </Button>
    </Stack>
  );
}

interface LinkedNoteWords {
  title: string;
  content: string;
}
const EMPTY_NOTE: LinkedNoteWords = { title: '', content: '' };
const isLinkedNoteWords = (value: unknown): value is LinkedNoteWords =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as LinkedNoteWords).title === 'string' &&
  typeof (value as LinkedNoteWords).content === 'string';
const sameLinkedNote = (a: LinkedNoteWords, b: LinkedNoteWords) => a.title === b.title && a.content === b.content;

function LinkedNotes({ details }: { details: TradeDetails }) {
  const clock = useTraderTime();
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const create = useCreateLinkedNote(details.trade.id);
  // A note being written here is kept in this browser until it is created.
  const draft = useDraft<LinkedNoteWords>({
    editor: 'linked-note',
    recordId: details.trade.id,
    value: { title, content },
    dirty: title !== '' || content !== '',
    base: null,
    saved: { value: EMPTY_NOTE, version: null },
    isValue: isLinkedNoteWords,
    same: sameLinkedNote,
    restore: (kept) => {
      setTitle(kept.title);
      setContent(kept.content);
    },
  });

  const submit = () => {
    if (!title.trim() && !content.trim()) return;
    const sent = { title, content };
    create.mutate(
      { title: title.trim(), content },
      {
        onSuccess: () => {
          setTitle('');
          setContent('');
          draft.markSaved(sent);
          notifications.show({ color: 'teal', message: 'Note linked to trade' });
        },
        onError: () => notifications.show({ color: 'red', message: 'Failed to create note' }),
      },
    );
  };

  return (
    <Card withBorder radius="md" padding="md" data-testid="linked-notes">
      <Title order={2} size="h4" mb="sm">
        Linked Notes
      </Title>
      {details.notes.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="linked-notes-empty">
          No notes linked yet.
        </Text>
      ) : (
        <Stack gap="md">
          {details.notes.map((note) => (
            <Card key={note.id} withBorder radius="sm" padding="sm" data-testid="linked-note">
              <Group justify="space-between" wrap="nowrap" mb={4}>
                <Anchor component={Link} to={`/notebook?note=${note.id}`} fw={600} truncate data-testid="linked-note-title">
                  {noteDisplayTitle(note.title)}
                </Anchor>
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {clock.format(note.updated_at, 'MM/dd/yyyy')}
                </Text>
              </Group>
              {note.content.trim() && <MarkdownView testId="linked-note-content">{note.content}</MarkdownView>}
            </Card>
          ))}
        </Stack>
      )}
      <Stack gap="xs" mt="md" component="form" onSubmit={(e) => (e.preventDefault(), submit())}>
        <DraftNotice draft={draft} what="note" compact />
        <TextInput
          label="Title"
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          maxLength={NOTE_TITLE_MAX}
          data-testid="linked-note-title-input"
        />
        <Textarea
          label="Content"
          value={content}
          onChange={(e) => setContent(e.currentTarget.value)}
          autosize
          minRows={3}
          maxRows={12}
          maxLength={NOTE_CONTENT_MAX}
          data-testid="linked-note-content-input"
        />
        <Button type="submit" loading={create.isPending} w="fit-content" data-testid="linked-note-create">
          Create Linked Note
        </Button>
      </Stack>
    </Card>
  );
}

/** Trade details. */
export function TradeDetailsPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const details = useQuery(tradeDetailsQuery(id));
  const { timeZone } = useTraderTime();
  // The chart's library (its own chunk) loads while the trade does, so that it is there when the chart's bars arrive.
  useEffect(() => void import('lightweight-charts'), []);
  const missing = details.error instanceof ApiError && (details.error.status === 404 || details.error.status === 400);

  // 'Failed to load trade details' (a trade that is not there has its own page instead).
  useEffect(() => {
    if (details.isError && !missing) notifications.show({ color: 'red', message: 'Failed to load trade details' });
  }, [details.isError, missing]);

  if (details.isPending) {
    return (
      <Group justify="center" p="xl">
        <Loader role="status" aria-label="Loading trade" />
      </Group>
    );
  }
  if (missing) return <NotFound />;
  if (details.isError) {
    return (
      <Stack align="flex-start" gap="sm">
        <Title order={1} size="h2">
          Trade details
        </Title>
        <Text c="dimmed">The trade could not be loaded.</Text>
        <Button variant="light" onClick={() => void details.refetch()}>
          Try again
        </Button>
      </Stack>
    );
  }

  const { trade } = details.data;
  const cents = toCents(trade.pnl || '0');
  return (
    <Stack gap="md" data-testid="trade-details">
      <title>{`${trade.symbol} trade · Edgebook`}</title>
      <Anchor component={Link} to="/trade-log" size="sm" w="fit-content">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden="true" /> Trade Log
        </Group>
      </Anchor>
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <Group gap="sm" align="center" wrap="nowrap">
          <Tooltip label="Previous trade" withArrow>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label="Previous trade"
              disabled={!details.data.previous_id}
              onClick={() => details.data.previous_id && navigate(`/trade/${details.data.previous_id}`)}
              data-testid="trade-previous"
            >
              <IconChevronLeft size={18} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
          <Stack gap={0}>
            <Title order={1} size="h2" data-testid="trade-symbol">
              {trade.symbol}
            </Title>
            <Text size="sm" c="dimmed" data-testid="trade-date">
              {formatDay(trade.date, 'EEEE, MMMM d, yyyy')}
            </Text>
          </Stack>
          <Tooltip label="Next trade" withArrow>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label="Next trade"
              disabled={!details.data.next_id}
              onClick={() => details.data.next_id && navigate(`/trade/${details.data.next_id}`)}
              data-testid="trade-next"
            >
              <IconChevronRight size={18} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
        </Group>
        <Group gap="sm" align="center">
          <ShareButton kind="trade" target={trade.id} />
          <ResultBadge result={trade.status} size="lg" />
          <Text size="xl" fw={700} ff="monospace" c={pnlTone(cents)} data-testid="trade-pnl-header">
            {formatMoney(cents, currencyOfContract(trade.contract))}
          </Text>
        </Group>
      </Group>

      <Card withBorder radius="md" padding="md">
        <TradeFields trade={trade} />
      </Card>

      <TradePlaybookCard tradeId={trade.id} />

      <TradeChartCard tradeId={trade.id} symbol={trade.contract || trade.symbol} timeZone={timeZone} />

      <FillsCard details={details.data} timeZone={timeZone} symbol={trade.contract || trade.symbol} />

      <LinkedNotes details={details.data} />

      <Card withBorder radius="md" padding="md">
        <Title order={2} size="h4" mb="sm">
          Attachments
        </Title>
        <ImageAttachments
          target={{ tradeId: trade.id }}
          attachments={details.data.attachments}
          invalidate={[queryKeys.tradeDetails.detail(trade.id)]}
          text={{ addLabel: 'Add', added: 'Attachment added', failed: 'Failed to add attachment', empty: 'No attachments yet.' }}
          testId="trade-attachments"
        />
      </Card>
    </Stack>
  );
}
