import { Button, Group, Modal, Text } from '@mantine/core';

/** Clear widgets / Reset Dashboard, confirmed; loaded when first asked for. */
export function LayoutConfirmDialog({
  confirm,
  onCancel,
  onConfirm,
}: {
  confirm: 'reset' | 'clear' | null;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal opened={confirm !== null} onClose={onCancel} title={confirm === 'clear' ? 'Clear widgets' : 'Reset Dashboard'} centered>
      <Text size="sm">
        {confirm === 'clear'
          ? 'Are you sure you want to remove all widgets from your dashboard? You can add them back from Add widget.'
          : 'Are you sure you want to reset your dashboard? The default widgets and layout will be restored.'}
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button color={confirm === 'clear' ? 'red' : undefined} onClick={onConfirm} data-testid="confirm-layout-action">
          {confirm === 'clear' ? 'Clear widgets' : 'Reset Dashboard'}
        </Button>
      </Group>
    </Modal>
  );
}
