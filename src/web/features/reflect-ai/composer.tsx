import { ActionIcon, Group, Text, Textarea, Tooltip } from '@mantine/core';
import { IconArrowUp, IconPlayerStopFilled } from '@tabler/icons-react';
import { forwardRef, type KeyboardEvent } from 'react';
import { MAX_CHAT_MESSAGE } from '../../../domain/chat';
import { useTypingPlaceholder } from './use-typing-placeholder';
import classes from './reflect-ai.module.css';

/** The longest question the server takes (src/contract/chat.ts). */
export const MAX_QUESTION = MAX_CHAT_MESSAGE;

interface ComposerProps {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  onStop: () => void;
  streaming: boolean;
  disabled: boolean;
  /** Sample questions for the typing placeholder (the welcome screen); a still placeholder otherwise. */
  samples: readonly string[] | null;
  deepThink: boolean;
}

/**
 * The question box: Enter sends, Shift+Enter makes a new line, an empty question is refused, and
 * while an answer streams the send button is a Stop button.
 */
export const Composer = forwardRef<HTMLTextAreaElement, ComposerProps>(function Composer(
  { value, onChange, onSend, onStop, streaming, disabled, samples, deepThink },
  ref,
) {
  const typed = useTypingPlaceholder(samples ?? [], samples !== null && !disabled && value === '');
  const placeholder = disabled
    ? 'ReflectAI is not available'
    : samples
      ? typed
      : deepThink
        ? 'Ask DeepThink a follow-up…'
        : 'Ask a follow-up about your trading…';
  const canSend = !disabled && !streaming && value.trim().length > 0;

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (canSend) onSend();
  };

  return (
    <div className={classes.composer}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (canSend) onSend();
        }}
      >
        <Group gap="xs" align="flex-end" wrap="nowrap" className={classes.composerBox}>
          <Textarea
            ref={ref}
            className={classes.composerInput}
            variant="unstyled"
            autosize
            minRows={1}
            maxRows={8}
            maxLength={MAX_QUESTION}
            value={value}
            onChange={(event) => onChange(event.currentTarget.value)}
            onKeyDown={onKeyDown}
            placeholder={placeholder}
            aria-label="Ask ReflectAI"
            disabled={disabled}
            data-testid="chat-input"
          />
          {streaming ? (
            <Tooltip label="Stop" withArrow>
              <ActionIcon size="lg" radius="xl" color="red.8" onClick={onStop} aria-label="Stop" data-testid="chat-stop">
                <IconPlayerStopFilled size={16} aria-hidden="true" />
              </ActionIcon>
            </Tooltip>
          ) : (
            <Tooltip label="Send" withArrow>
              <ActionIcon type="submit" size="lg" radius="xl" disabled={!canSend} aria-label="Send" data-testid="chat-send">
                <IconArrowUp size={18} aria-hidden="true" />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </form>
      <Text size="xs" c="dimmed" ta="center" mt={4} className={classes.composerHint}>
        Enter to send, Shift+Enter for a new line. Figures come from your own trades, computed by Edgebook.
      </Text>
    </div>
  );
});
