import { Button, Group, Text } from '@mantine/core';
import { notifications, notificationsStore } from '@mantine/notifications';

let sequence = 0;

/**
 * A success toast with an Undo button. `onUndo` runs when the trader clicks Undo; `onGone` once the toast
 * has left any other way (its close button, its time, or a newer toast replacing it), which is when the change
 * becomes final. Exactly one of them runs.
 */
export function toastWithUndo(message: string, { duration, onUndo, onGone }: { duration: number; onUndo: () => void; onGone: () => void }) {
  sequence += 1;
  const id = `undo-toast-${sequence}`;
  let settled = false;
  let unsubscribe = () => {};
  const settle = (undo: boolean) => {
    if (settled) return;
    settled = true;
    unsubscribe();
    if (undo) {
      notifications.hide(id);
      onUndo();
    } else {
      onGone();
    }
  };
  notifications.show({
    id,
    color: 'teal',
    autoClose: duration,
    message: (
      <Group justify="space-between" gap="sm" wrap="nowrap">
        <Text size="sm">{message}</Text>
        <Button size="compact-sm" variant="light" onClick={() => settle(true)} data-testid="toast-undo">
          Undo
        </Button>
      </Group>
    ),
  });
  unsubscribe = notificationsStore.subscribe((state) => {
    if (!state.notifications.some((n) => n.id === id) && !state.queue.some((n) => n.id === id)) settle(false);
  });
}
