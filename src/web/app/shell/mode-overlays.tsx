import { Button, Group, Paper, Portal, Stack, Text, Title } from '@mantine/core';
import classes from './shell.module.css';

/** A full-screen overlay for 1 second when trading mode switches. */
export function TradingModeOverlay({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Portal>
      <div className={classes.tradingOverlay} role="status" aria-live="assertive" data-testid="trading-mode-overlay">
        <Title order={2} className={classes.tradingOverlayText}>
          {message}
        </Title>
      </div>
    </Portal>
  );
}

interface EditModeOverlayProps {
  onDismiss: () => void;
  onDismissForever: () => void;
}

/** Shown when edit mode turns on, unless dismissed for good (localStorage 'edit-overlay-dismissed'). */
export function EditModeOverlay({ onDismiss, onDismissForever }: EditModeOverlayProps) {
  return (
    <Portal>
      <Paper className={classes.editOverlay} shadow="xl" withBorder p="md" role="region" aria-label="Edit mode" data-testid="edit-mode-overlay">
        <Stack gap="xs">
          <Text fw={700}>Edit mode is on</Text>
          <Text size="sm">
            Rearrange, add or remove dashboard widgets. Turn edit mode off with the pencil button in the top bar when you are done.
          </Text>
          <Group justify="flex-end" gap="xs">
            <Button size="xs" variant="default" onClick={onDismissForever} data-testid="edit-overlay-dismiss-forever">
              Don&apos;t show again
            </Button>
            <Button size="xs" onClick={onDismiss} data-testid="edit-overlay-dismiss">
              Got it
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Portal>
  );
}
