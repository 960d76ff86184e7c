import { ActionIcon, Alert, Badge, Collapse, CopyButton, Group, Loader, Paper, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconBrain, IconCheck, IconChevronDown, IconCopy, IconDatabase, IconPlayerStop } from '@tabler/icons-react';
import { memo, useId, useState } from 'react';
import { DEEPTHINK_ERROR_TITLE, type AnswerChart as Chart, type AnswerSource, type ChatMessage } from '../../../domain/chat';
import { TONE_COLOR } from '../../lib/tone';
import { AnswerChart } from './answer-chart';
import { AnswerMarkdown } from './answer-markdown';
import type { PendingExchange } from './use-chat-stream';
import classes from './reflect-ai.module.css';

export function UserMessage({ message }: { message: ChatMessage }) {
  return (
    <div className={classes.userRow} data-testid="user-message">
      <Paper className={classes.userBubble} radius="lg" px="md" py="xs">
        <Text size="sm" className={classes.userText}>
          {message.text}
        </Text>
      </Paper>
    </div>
  );
}

/** DeepThink's reasoning: a collapsible 'Thinking' block above the answer, open while it is being written. */
function ThinkingBlock({ reasoning, thinking }: { reasoning: string; thinking: boolean }) {
  const [open, setOpen] = useState<boolean | null>(null);
  const id = useId();
  const opened = open ?? thinking;
  return (
    <div className={classes.thinking} data-testid="thinking-block">
      <UnstyledButton className={classes.thinkingToggle} onClick={() => setOpen(!opened)} aria-expanded={opened} aria-controls={id}>
        <IconBrain size={16} aria-hidden="true" />
        <Text size="sm" fw={600} span>
          Thinking
        </Text>
        {thinking && <Loader size={12} type="dots" aria-hidden="true" />}
        <IconChevronDown size={14} aria-hidden="true" className={classes.chevron} data-open={opened || undefined} />
      </UnstyledButton>
      <Collapse expanded={opened} id={id}>
        <Text size="sm" className={classes.reasoning} data-testid="thinking-text">
          {reasoning}
        </Text>
      </Collapse>
    </div>
  );
}

function Sources({ sources }: { sources: AnswerSource[] }) {
  if (!sources.length) return null;
  return (
    <Stack gap={2} data-testid="answer-sources">
      {sources.map((s) => (
        <Group key={s.text} gap={6} wrap="nowrap" align="flex-start">
          <IconDatabase size={14} aria-hidden="true" className={classes.sourceIcon} />
          <Text size="xs" c="dimmed" data-testid="answer-source">
            {s.text.charAt(0).toUpperCase() + s.text.slice(1)}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

interface AnswerViewProps {
  text: string;
  reasoning: string | null;
  mode: ChatMessage['mode'];
  status: ChatMessage['status'] | 'streaming';
  sources: AnswerSource[];
  charts: Chart[];
  error: string | null;
  /** Money or percentages the model wrote that Edgebook never gave it (known once the answer is stored). */
  unverified?: string[];
  /** While streaming: the tool running now. */
  tool?: string | null;
}

/** One answer: Thinking, the markdown, what went wrong, its sources and charts, and whether it was cut short. */
const AnswerView = memo(function AnswerView({ text, reasoning, mode, status, sources, charts, error, unverified = [], tool }: AnswerViewProps) {
  const streaming = status === 'streaming';
  const waiting = streaming && !text && !tool && !error;
  return (
    <div className={classes.answerRow} data-testid="answer" data-status={status} data-mode={mode} aria-busy={streaming || undefined}>
      <Stack gap="xs" className={classes.answer}>
        {reasoning ? <ThinkingBlock reasoning={reasoning} thinking={streaming && !text} /> : null}
        {waiting && !reasoning && (
          <Group gap="xs" data-testid="answer-waiting">
            <Loader size="sm" type="dots" aria-hidden="true" />
            <Text size="sm" c="dimmed">
              {mode === 'deepthink' ? 'DeepThink is thinking…' : 'ReflectAI is answering…'}
            </Text>
          </Group>
        )}
        {tool && (
          <Group gap="xs" data-testid="answer-tool">
            <Loader size={14} aria-hidden="true" />
            <Text size="sm" c="dimmed">
              {tool}…
            </Text>
          </Group>
        )}
        {text && <AnswerMarkdown text={text} />}
        {error && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle size={18} aria-hidden="true" />}
            title={mode === 'deepthink' ? DEEPTHINK_ERROR_TITLE : undefined}
            data-testid="answer-error"
          >
            {error}
          </Alert>
        )}
        {unverified.length > 0 && (
          <Alert
            color="yellow"
            variant="light"
            icon={<IconAlertTriangle size={18} aria-hidden="true" />}
            title="Figures Edgebook did not compute"
            styles={{ title: { color: TONE_COLOR.warning } }}
            data-testid="answer-unverified"
          >
            The AI wrote {unverified.join(', ')}, which {unverified.length === 1 ? 'is' : 'are'} not among the figures Edgebook gave it. Check{' '}
            {unverified.length === 1 ? 'it' : 'them'} before relying on {unverified.length === 1 ? 'it' : 'them'}: the sources below are computed from
            your trades.
          </Alert>
        )}
        {charts.map((chart, i) => (
          <AnswerChart key={`${chart.title}-${i}`} chart={chart} />
        ))}
        <Sources sources={sources} />
        {!streaming && (
          <Group gap="xs">
            {status === 'stopped' && (
              <Badge color="gray" variant="light" leftSection={<IconPlayerStop size={12} aria-hidden="true" />} data-testid="answer-stopped">
                Stopped
              </Badge>
            )}
            {status === 'failed' && !error && (
              <Badge color="red" variant="light" data-testid="answer-failed">
                Failed
              </Badge>
            )}
            {mode === 'deepthink' && (
              <Badge color="indigo" variant="light">
                DeepThink
              </Badge>
            )}
            {text && (
              <CopyButton value={text} timeout={1500}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? 'Copied' : 'Copy answer'} withArrow>
                    <ActionIcon variant="subtle" color="gray" size="sm" onClick={copy} aria-label={copied ? 'Copied' : 'Copy answer'}>
                      {copied ? <IconCheck size={14} aria-hidden="true" /> : <IconCopy size={14} aria-hidden="true" />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            )}
          </Group>
        )}
      </Stack>
    </div>
  );
});

export function StoredAnswer({ message }: { message: ChatMessage }) {
  const meta = message.meta ?? {};
  return (
    <AnswerView
      text={message.text}
      reasoning={message.reasoning}
      mode={message.mode}
      status={message.status}
      sources={meta.sources ?? []}
      charts={meta.charts ?? []}
      error={message.status === 'failed' ? (meta.error ?? null) : null}
      unverified={meta.unverified}
    />
  );
}

export function StreamingAnswerView({ pending }: { pending: PendingExchange }) {
  const { answer } = pending;
  return (
    <AnswerView
      text={answer.text}
      reasoning={answer.reasoning || null}
      mode={pending.mode}
      status="streaming"
      sources={answer.sources}
      charts={answer.charts.filter((c) => c.points.length > 1)}
      error={answer.error}
      tool={answer.tool}
    />
  );
}
