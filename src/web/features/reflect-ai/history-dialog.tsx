import { ActionIcon, Group, Loader, Modal, Stack, Text, Title, Tooltip, UnstyledButton } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { groupChatSessions, truncateChatTitle, type ChatSession } from '../../../domain/chat';
import { useTraderTime } from '../../shared/trader-clock';
import { sessionsQuery } from './api';
import classes from './reflect-ai.module.css';

/** The last message as one plain line: an answer's markdown marks would only be noise in a preview. */
const preview = (text: string) =>
  text
    .replace(/[*_`#>|~]+/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();

interface HistoryDialogProps {
  opened: boolean;
  onClose: () => void;
  stackId?: string;
  activeId: string | undefined;
  onSelect: (session: ChatSession) => void;
  onDelete: (session: ChatSession) => void;
}

/** Chat History: sessions grouped Today / Yesterday / Older in the trader's zone. */
export function HistoryDialog({ opened, onClose, stackId, activeId, onSelect, onDelete }: HistoryDialogProps) {
  const { data: sessions, isPending, isError } = useQuery({ ...sessionsQuery, enabled: opened });
  const clock = useTraderTime();
  const { timeZone } = clock;
  const groups = useMemo(() => groupChatSessions(sessions ?? [], new Date(), timeZone), [sessions, timeZone]);
  const today = clock.today(new Date());
  // Today's conversations by their time, as the header's clock reads it (HH:mm); older ones by their date.
  const when = (iso: string) => clock.format(iso, clock.format(iso, 'yyyy-MM-dd') === today ? 'HH:mm' : 'MMM d, yyyy');

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      stackId={stackId}
      title="Chat History"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
      data-testid="history-dialog"
    >
      {isPending ? (
        <Group justify="center" p="lg">
          <Loader size="sm" role="status" aria-label="Loading conversations" />
        </Group>
      ) : isError ? (
        <Text c="red" size="sm">
          Failed to load your conversations. Please try again.
        </Text>
      ) : (
        <Stack gap="md">
          {groups.map((group) => (
            <section key={group.label} aria-labelledby={`history-${group.label}`} data-testid="history-group" data-label={group.label}>
              <Title order={3} size="h6" c="dimmed" tt="uppercase" mb={4} id={`history-${group.label}`}>
                {group.label}
              </Title>
              <Stack gap={2} component="ul" className={classes.historyList}>
                {group.sessions.map((session) => (
                  <li
                    key={session.id}
                    className={classes.historyItem}
                    data-active={session.id === activeId || undefined}
                    data-testid="history-session"
                  >
                    <UnstyledButton
                      className={classes.historyButton}
                      onClick={() => onSelect(session)}
                      aria-current={session.id === activeId ? 'true' : undefined}
                    >
                      <Group justify="space-between" wrap="nowrap" gap="sm">
                        <Text size="sm" fw={600} truncate="end" data-testid="history-title">
                          {truncateChatTitle(session.title)}
                        </Text>
                        <Text size="xs" c="dimmed" className={classes.nowrap} data-testid="history-when">
                          {when(session.updatedAt)}
                        </Text>
                      </Group>
                      {session.last_message && (
                        <Text size="xs" c="dimmed" truncate="end">
                          {preview(session.last_message)}
                        </Text>
                      )}
                    </UnstyledButton>
                    <Tooltip label="Delete chat" withArrow>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        onClick={() => onDelete(session)}
                        aria-label={`Delete chat ${truncateChatTitle(session.title)}`}
                      >
                        <IconTrash size={16} aria-hidden="true" />
                      </ActionIcon>
                    </Tooltip>
                  </li>
                ))}
              </Stack>
            </section>
          ))}
        </Stack>
      )}
    </Modal>
  );
}
