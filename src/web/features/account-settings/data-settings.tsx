import { Alert, Button, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconDownload, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';
import { markSigningOut } from '../../lib/sign-out-state';
import { clearLocalDataOnSignOut } from '../../lib/storage-keys';
import { resetUiModes } from '../../lib/ui-modes';
import { deleteAccount } from './api';

/** Profile settings, Your data: export everything as one JSON file, delete the account. */
export function DataSettings() {
  const { data: session } = useSession();
  const [deleting, setDeleting] = useState(false);
  return (
    <Stack gap="lg">
      <Stack gap="xs" component="section">
        <Title order={3} size="h5">
          Export your data
        </Title>
        <Text size="sm">
          One JSON file with everything your account holds: trades, trading accounts, notes, journal, reflections, chats, tasks, preferences, links
          and uploaded pictures.
        </Text>
        <Group>
          <Button
            component="a"
            href="/api/account/export"
            download
            leftSection={<IconDownload size={16} aria-hidden="true" />}
            variant="default"
            data-testid="export-all"
          >
            Export Everything
          </Button>
        </Group>
      </Stack>
      <Stack gap="xs" component="section">
        <Title order={3} size="h5">
          Delete account
        </Title>
        <Text size="sm">Deletes your account and everything it holds from this server. This cannot be undone.</Text>
        <Group>
          <Button
            color="red"
            variant="light"
            leftSection={<IconTrash size={16} aria-hidden="true" />}
            onClick={() => setDeleting(true)}
            data-testid="delete-account"
          >
            Delete Account
          </Button>
        </Group>
      </Stack>
      {session && <DeleteAccountModal opened={deleting} email={session.user.email} onClose={() => setDeleting(false)} />}
    </Stack>
  );
}

function DeleteAccountModal({ opened, email, onClose }: { opened: boolean; email: string; onClose: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const matches = typed.trim().toLowerCase() === email.toLowerCase();

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await deleteAccount(typed);
    } catch (e) {
      setBusy(false);
      setError(e instanceof ApiError ? e.message.replace(/^email: /, '') : 'Failed to delete the account. Please try again.');
      return;
    }
    // The account and its session are gone: leave as a sign-out does (to /intro). The cache, the
    // session with it, is cleared when the shell leaves the screen (ShellLayout).
    markSigningOut();
    await queryClient.cancelQueries();
    void navigate('/intro', { replace: true });
    clearLocalDataOnSignOut();
    resetUiModes();
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Delete your account?" centered zIndex={400} closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack gap="sm">
        <Text size="sm">
          This deletes your Edgebook account and everything in it: trades, trading accounts, notes, journal, reflections, chats, tasks, preferences,
          links and pictures. It cannot be undone. Export your data first to keep a copy.
        </Text>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <TextInput
          label={`Type your email (${email}) to confirm`}
          autoComplete="off"
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
          data-autofocus
          data-testid="delete-account-email"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" disabled={!matches} loading={busy} onClick={() => void confirm()} data-testid="delete-account-confirm">
            Delete My Account
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
