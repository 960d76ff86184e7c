import { Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { useSignOut } from './use-sign-out';

interface LogoutModalProps {
  opened: boolean;
  onClose: () => void;
}

// The confirmation's title names the product.
export function LogoutModal({ opened, onClose }: LogoutModalProps) {
  const signOut = useSignOut();
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    setBusy(true);
    const ok = await signOut();
    setBusy(false);
    if (ok) onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Logout from Edgebook"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
      data-testid="logout-modal"
    >
      <Text size="sm">Are you sure you want to logout? You&apos;ll need to sign in again to access your dashboard.</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose} data-testid="logout-cancel">
          Cancel
        </Button>
        <Button color="red.9" onClick={confirm} loading={busy} data-testid="logout-confirm">
          Logout
        </Button>
      </Group>
    </Modal>
  );
}
