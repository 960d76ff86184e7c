import { Button, Code, Group, List, Popover, Stack, Text, Textarea } from '@mantine/core';
import { IconPlayerStopFilled, IconSparkles } from '@tabler/icons-react';
import { useState } from 'react';
import { useAppConfig } from '../../../lib/app-config';

interface WriteWithAiProps {
  drafting: boolean;
  onDraft: (instruction: string) => void;
  onStop: () => void;
}

/**
 * 'Write with AI' (it drafts with the configured provider). With a provider:
 * an optional instruction, then the draft streams into the body at the caret, and Stop ends it. Without one: the
 * button says so plainly and how to configure one.
 */
export function WriteWithAi({ drafting, onDraft, onStop }: WriteWithAiProps) {
  const config = useAppConfig();
  const [opened, setOpened] = useState(false);
  const [instruction, setInstruction] = useState('');
  const configured = config.data?.ai.configured === true;

  if (drafting) {
    return (
      <Button
        size="xs"
        color="red"
        variant="light"
        leftSection={<IconPlayerStopFilled size={14} aria-hidden="true" />}
        onClick={onStop}
        data-testid="ai-stop"
      >
        Stop
      </Button>
    );
  }

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" width={340} withArrow trapFocus shadow="md">
      <Popover.Target>
        <Button
          size="xs"
          variant="gradient"
          gradient={{ from: 'indigo.7', to: 'grape.8', deg: 90 }}
          leftSection={<IconSparkles size={14} aria-hidden="true" />}
          onClick={() => setOpened((o) => !o)}
          aria-description={config.isSuccess && !configured ? 'AI is not configured on this server' : undefined}
          data-testid="ai-write"
        >
          Write with AI
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="ai-panel">
        {!config.isSuccess ? (
          <Text size="sm">Checking whether AI is available…</Text>
        ) : configured ? (
          <Stack
            gap="xs"
            component="form"
            onSubmit={(event) => {
              event.preventDefault();
              setOpened(false);
              onDraft(instruction);
            }}
          >
            <Textarea
              label="What should the draft cover?"
              description="Optional. The draft is written where the cursor is, using this note's linked trade."
              placeholder="e.g. a post-session review of this trade"
              value={instruction}
              onChange={(e) => setInstruction(e.currentTarget.value)}
              autosize
              minRows={2}
              maxRows={6}
              maxLength={2000}
              data-autofocus
              data-testid="ai-instruction"
            />
            <Group justify="flex-end">
              <Button type="submit" size="xs" leftSection={<IconSparkles size={14} aria-hidden="true" />} data-testid="ai-draft">
                Draft
              </Button>
            </Group>
          </Stack>
        ) : (
          <Stack gap={6} data-testid="ai-not-configured">
            <Text size="sm" fw={600}>
              AI is not configured on this server.
            </Text>
            <Text size="sm">To turn it on, the person who runs Edgebook sets these and restarts it:</Text>
            <List size="sm" spacing={2}>
              <List.Item>
                <Code>AI_BASE_URL</Code>: an OpenAI-compatible endpoint (OpenAI, DeepSeek, Groq, a local Ollama or llama.cpp)
              </List.Item>
              <List.Item>
                <Code>AI_API_KEY</Code>: its key (it stays on the server)
              </List.Item>
              <List.Item>
                <Code>AI_MODEL</Code>: the model to use
              </List.Item>
            </List>
            <Text size="xs" c="dimmed">
              docs/self-hosting.md lists every setting.
            </Text>
          </Stack>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
