import { Alert, Button, Group, Loader, Modal, SimpleGrid, Stack, Text, Title, UnstyledButton, useModalsStack } from '@mantine/core';
import { IconArrowDown, IconInfoCircle } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import {
  DEEPTHINK_NOT_CONFIGURED,
  DEEPTHINK_NOT_CONFIGURED_TITLE,
  DEFAULT_CHAT_TITLE,
  chatGreeting,
  type ChatMessage,
  type ChatSession,
} from '../../../domain/chat';
import { getHourInZone } from '../../../domain/dates';
import { ApiError } from '../../lib/api';
import { AI_NOT_CONFIGURED_HINT, useAppConfig } from '../../lib/app-config';
import { toastError, toastInfo } from '../../lib/toast';
import { TONE_COLOR } from '../../lib/tone';
import { preferencesQuery, profileQuery, queryKeys } from '../../shared/api';
import { greetingName } from '../../shared/profile-names';
import { useTraderTime } from '../../shared/trader-clock';
import { currentSessionQuery, messagesQuery, sessionsQuery, useClearSession, useDeleteSession, useNewSession, useRenameSession } from './api';
import { ChatHeader } from './chat-header';
import { StoredAnswer, StreamingAnswerView, UserMessage } from './chat-messages';
import { Composer } from './composer';
import { HistoryDialog } from './history-dialog';
import { SAMPLE_QUESTIONS } from './sample-questions';
import { useChatStream, type PendingExchange } from './use-chat-stream';
import classes from './reflect-ai.module.css';

/** New text follows the answer unless the trader scrolled up further. */
const STICK_PX = 100;

function Welcome({ name, hour, onPick, disabled }: { name: string; hour: number; onPick: (q: string) => void; disabled: boolean }) {
  return (
    <div className={classes.welcome} data-testid="chat-welcome">
      <div>
        <Title order={2} size="h2" data-testid="chat-greeting">
          {chatGreeting(hour)}, {name}
        </Title>
        <Text c="dimmed" mt={6}>
          Ask about your own trading. ReflectAI answers from your trades, with every figure computed by Edgebook.
        </Text>
      </div>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" w="100%" maw={640}>
        {SAMPLE_QUESTIONS.slice(0, 4).map((q) => (
          <UnstyledButton key={q} className={classes.suggestion} onClick={() => onPick(q)} disabled={disabled} data-testid="chat-suggestion">
            {q}
          </UnstyledButton>
        ))}
      </SimpleGrid>
    </div>
  );
}

function Conversation({ messages, pending }: { messages: ChatMessage[]; pending: PendingExchange | null }) {
  return (
    <Stack gap="lg" data-testid="chat-messages" role="log" aria-live="polite" aria-relevant="additions">
      {messages.map((m) => (m.isUser ? <UserMessage key={m.id} message={m} /> : <StoredAnswer key={m.id} message={m} />))}
      {pending && (
        <>
          <UserMessage message={pending.question} />
          <StreamingAnswerView pending={pending} />
        </>
      )}
    </Stack>
  );
}

/**
 * ReflectAI: the welcome screen until the
 * conversation has a question, then the conversation with streamed answers, their sources and charts; New Chat,
 * Chat History, rename, clear and delete; DeepThink with its reasoning. Without an AI provider it says so and how to
 * configure one, and the question box is off.
 */
export function ReflectAiPage() {
  const { data: config } = useAppConfig();
  const aiConfigured = config?.ai?.configured ?? false;
  const current = useQuery(currentSessionQuery);
  const sessions = useQuery(sessionsQuery);
  const preferencesQ = useQuery(preferencesQuery);
  const profileQ = useQuery(profileQuery);
  const profile = profileQ.data;
  const [activeId, setActiveId] = useState<string | undefined>();
  const sessionId = activeId ?? current.data?.id;
  const session: ChatSession | undefined =
    sessions.data?.find((s) => s.id === sessionId) ?? (current.data?.id === sessionId ? current.data : undefined);
  const messagesQ = useQuery({ ...messagesQuery(sessionId ?? ''), enabled: Boolean(sessionId) });
  const messages = messagesQ.data ?? [];
  const { timeZone } = useTraderTime();

  const [draft, setDraft] = useState('');
  const [deepThink, setDeepThink] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const client = useQueryClient();
  const onRefused = useCallback(
    (question: string, status: number) => {
      setDraft((d) => d || question);
      // The conversation was deleted elsewhere (another tab): go to the newest one.
      if (status === 404) {
        setActiveId(undefined);
        void client.invalidateQueries({ queryKey: queryKeys.chat.all });
      }
    },
    [client],
  );
  const chat = useChatStream({ onRefused });
  const pending = chat.pending?.sessionId === sessionId ? chat.pending : null;
  const busy = chat.streaming;

  const newSession = useNewSession();
  const rename = useRenameSession();
  const clear = useClearSession();
  const remove = useDeleteSession();
  const stack = useModalsStack(['history', 'delete']);
  const [clearOpen, setClearOpen] = useState(false);
  const [toDelete, setToDelete] = useState<ChatSession | null>(null);

  const title = session?.title ?? DEFAULT_CHAT_TITLE;
  const hasMessages = messages.length > 0 || pending !== null;
  const hasQuestion = pending !== null || messages.some((m) => m.isUser);
  // The welcome waits for the trader's zone and name, so it never greets for the wrong hour or as 'Trader' first.
  const loading = !sessionId || messagesQ.isPending || (!hasQuestion && (preferencesQ.isPending || profileQ.isPending));
  const inputDisabled = !config || !aiConfigured || !sessionId;

  // Auto-scroll: follow new text while the trader is within 100 px of the bottom.
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  // Where toBottom last left the scroller: a scroll the trader made since shows here before its scroll event fires.
  const pinnedTop = useRef(0);
  const [away, setAway] = useState(false);
  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
    stick.current = distance <= STICK_PX;
    setAway(!stick.current);
  };
  const toBottom = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    el.scrollTop = el.scrollHeight;
    pinnedTop.current = el.scrollTop;
    stick.current = true;
    setAway(false);
  }, []);
  const follow = useCallback(() => {
    const el = scroller.current;
    if (!el || !stick.current) return;
    if (el.scrollTop < pinnedTop.current - STICK_PX) stick.current = false;
    else toBottom();
  }, [toBottom]);
  useLayoutEffect(follow, [messages, pending, follow]);
  // Content also grows without new text (a chart laid out, a Thinking block opened): follow that too.
  const content = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = content.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(follow);
    observer.observe(el);
    return () => observer.disconnect();
  }, [follow]);
  // A conversation opens at its end.
  useLayoutEffect(() => {
    stick.current = true;
    toBottom();
  }, [sessionId, messagesQ.isPending, toBottom]);

  // The question box takes the focus when a conversation opens or an answer ends; not on touch screens, where it
  // would pull up the keyboard over the page.
  useEffect(() => {
    if (!busy && !inputDisabled && window.matchMedia('(pointer: fine)').matches) input.current?.focus({ preventScroll: true });
  }, [busy, inputDisabled, sessionId]);

  const send = (text = draft) => {
    if (!sessionId || inputDisabled || busy || !text.trim()) return;
    setDraft('');
    stick.current = true;
    void chat.send(sessionId, text, deepThink ? 'deepthink' : 'chat');
  };

  const newChat = () => {
    // New Chat does nothing while the conversation has no messages.
    if (!hasMessages || busy) {
      input.current?.focus();
      return;
    }
    newSession.mutate(undefined, {
      onSuccess: (s) => setActiveId(s.id),
      onError: (error) => toastError('Failed to start a new chat', error.message),
    });
  };

  const onRename = async (next: string) => {
    if (!sessionId) return false;
    try {
      await rename.mutateAsync({ id: sessionId, title: next });
      return true;
    } catch (error) {
      toastError('Failed to rename chat', error instanceof ApiError ? error.message : undefined);
      return false;
    }
  };

  const askDelete = (s: ChatSession) => {
    setToDelete(s);
    stack.open('delete');
  };
  const confirmDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete.id, {
      onSuccess: ({ deleted, next }) => {
        // Deleting the active conversation switches to another one, or a new one.
        if (deleted === sessionId) setActiveId(next.id);
        stack.close('delete');
        setToDelete(null);
      },
      onError: (error) => toastError('Failed to delete chat', error.message),
    });
  };

  const hour = getHourInZone(new Date(), timeZone) ?? 12;

  const toggleDeepThink = (on: boolean) => {
    // DeepThink needs a configured AI provider; without one the trader is told to ask the administrator.
    if (on && config && !aiConfigured) {
      toastInfo(DEEPTHINK_NOT_CONFIGURED_TITLE, DEEPTHINK_NOT_CONFIGURED);
      return;
    }
    setDeepThink(on);
  };

  return (
    <div className={classes.page} data-testid="reflect-ai-page">
      <title>{`${title} · ReflectAI`}</title>
      <ChatHeader
        title={title}
        busy={busy}
        hasMessages={hasMessages}
        deepThink={deepThink}
        onDeepThink={toggleDeepThink}
        onNewChat={newChat}
        onHistory={() => stack.open('history')}
        onRename={onRename}
        onClear={() => setClearOpen(true)}
        onDelete={() => session && askDelete(session)}
      />

      <div
        className={classes.scroller}
        ref={scroller}
        onScroll={onScroll}
        tabIndex={0}
        role="region"
        aria-label="Conversation"
        data-testid="chat-scroller"
      >
        <div ref={content} className={classes.content}>
          {config && !aiConfigured && (
            <Alert
              color="yellow"
              variant="light"
              icon={<IconInfoCircle size={18} aria-hidden="true" />}
              title="AI is not configured"
              styles={{ title: { color: TONE_COLOR.warning } }}
              mb="md"
              data-testid="ai-not-configured"
            >
              {AI_NOT_CONFIGURED_HINT}
            </Alert>
          )}
          {current.isError ? (
            <Alert color="red" title="Failed to load your conversations" mt="md">
              Please refresh the page and try again.
            </Alert>
          ) : loading ? (
            <Group justify="center" p="xl">
              <Loader role="status" aria-label="Loading the conversation" />
            </Group>
          ) : hasQuestion ? (
            <Conversation messages={messages} pending={pending} />
          ) : (
            <Welcome name={greetingName(profile)} hour={hour} onPick={(q) => send(q)} disabled={inputDisabled} />
          )}
        </div>
        {away && hasQuestion && (
          <div className={classes.jump}>
            <Button size="xs" radius="xl" variant="default" leftSection={<IconArrowDown size={14} aria-hidden="true" />} onClick={toBottom}>
              Latest
            </Button>
          </div>
        )}
      </div>

      <Composer
        ref={input}
        value={draft}
        onChange={setDraft}
        onSend={() => send()}
        onStop={chat.stop}
        streaming={busy}
        disabled={inputDisabled}
        samples={hasQuestion || loading ? null : SAMPLE_QUESTIONS}
        deepThink={deepThink}
      />

      <Modal.Stack>
        <HistoryDialog
          {...stack.register('history')}
          activeId={sessionId}
          onSelect={(s) => {
            setActiveId(s.id);
            stack.close('history');
          }}
          onDelete={askDelete}
        />
        <Modal
          {...stack.register('delete')}
          title="Delete chat"
          centered
          closeButtonProps={{ 'aria-label': 'Close' }}
          data-testid="delete-chat-dialog"
        >
          <Text size="sm">
            Are you sure you want to delete &quot;{toDelete?.title}&quot;? Its messages will be deleted too. This cannot be undone.
          </Text>
          <Group justify="flex-end" mt="lg">
            <Button variant="default" onClick={() => stack.close('delete')}>
              Cancel
            </Button>
            <Button color="red.8" onClick={confirmDelete} loading={remove.isPending} data-testid="confirm-delete-chat">
              Delete
            </Button>
          </Group>
        </Modal>
      </Modal.Stack>

      <Modal opened={clearOpen} onClose={() => setClearOpen(false)} title="Clear chat" centered closeButtonProps={{ 'aria-label': 'Close' }}>
        <Text size="sm">Are you sure you want to clear this chat? All of its messages will be removed and its title reset.</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setClearOpen(false)}>
            Cancel
          </Button>
          <Button
            color="red.8"
            loading={clear.isPending}
            data-testid="confirm-clear-chat"
            onClick={() =>
              sessionId &&
              clear.mutate(sessionId, {
                onSuccess: () => setClearOpen(false),
                onError: (error) => toastError('Failed to clear chat', error.message),
              })
            }
          >
            Clear
          </Button>
        </Group>
      </Modal>
    </div>
  );
}
