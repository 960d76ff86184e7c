import { Button, Checkbox, CopyButton, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconShare } from '@tabler/icons-react';
import { useState } from 'react';
import type { CreatedShareLink } from '../../../contract/share-links';
import { SHARE_EXPIRIES, SHARE_EXPIRY_LABELS, type ShareExpiry, type ShareKind } from '../../../domain/links/share-links';
import { useCreateShareLink } from './api';

/**
 * "Share": a read-only link to a trade, a day, a playbook or a prop account's status. The dialog asks how long it
 * answers, what it hides and (for a trade or a day) whether the trader's own words and images go with it, then shows the
 * link once with a copy button (only its hash is kept, so it cannot be shown again).
 */
export function ShareButton({ kind, target }: { kind: ShareKind; target: string }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="default"
        size="sm"
        leftSection={<IconShare size={16} aria-hidden="true" />}
        onClick={() => setOpened(true)}
        data-testid="share-open"
      >
        Share
      </Button>
      {opened && <ShareDialog kind={kind} target={target} onClose={() => setOpened(false)} />}
    </>
  );
}

function ShareDialog({ kind, target, onClose }: { kind: ShareKind; target: string; onClose: () => void }) {
  const create = useCreateShareLink();
  const [expires, setExpires] = useState<ShareExpiry>('week');
  const [hideAmounts, setHideAmounts] = useState(false);
  const [hideAccounts, setHideAccounts] = useState(false);
  const [includeNotes, setIncludeNotes] = useState(false);
  const [created, setCreated] = useState<CreatedShareLink | null>(null);
  const what = kind === 'prop' ? 'account status' : kind;
  // A trade's notes and images, a day's journal entry and its images: what only its trader wrote, shared when chosen.
  const withNotes = kind === 'trade' || kind === 'day';

  return (
    <Modal opened onClose={onClose} title={`Share this ${what}`} centered closeButtonProps={{ 'aria-label': 'Close' }}>
      {created ? (
        <Stack>
          <Text size="sm">Anyone with this link can view the {what}, read only. Copy it now: it is not shown again.</Text>
          <TextInput label="Link" value={created.url} readOnly onFocus={(e) => e.currentTarget.select()} data-testid="share-url" />
          <Group justify="flex-end">
            <CopyButton value={created.url}>
              {({ copied, copy }) => (
                <Button onClick={copy} color={copied ? 'teal' : undefined} data-testid="share-copy">
                  {copied ? 'Copied' : 'Copy link'}
                </Button>
              )}
            </CopyButton>
            <Button variant="default" onClick={onClose}>
              Done
            </Button>
          </Group>
        </Stack>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate(
              { kind, target, expires, hide_amounts: hideAmounts, hide_accounts: hideAccounts, include_notes: withNotes && includeNotes },
              { onSuccess: setCreated },
            );
          }}
        >
          <Stack>
            <Select
              label="Expires"
              data={SHARE_EXPIRIES.map((value) => ({ value, label: SHARE_EXPIRY_LABELS[value] }))}
              value={expires}
              onChange={(value) => value && setExpires(value as ShareExpiry)}
              allowDeselect={false}
              data-testid="share-expires"
            />
            <Checkbox
              label="Hide dollar amounts (show R and percentages)"
              checked={hideAmounts}
              onChange={(e) => setHideAmounts(e.currentTarget.checked)}
              data-testid="share-hide-amounts"
            />
            <Checkbox
              label="Hide account names"
              checked={hideAccounts}
              onChange={(e) => setHideAccounts(e.currentTarget.checked)}
              data-testid="share-hide-accounts"
            />
            {withNotes && (
              <Checkbox
                label="Include notes and images"
                checked={includeNotes}
                onChange={(e) => setIncludeNotes(e.currentTarget.checked)}
                data-testid="share-include-notes"
              />
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending} data-testid="share-create">
                Create link
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
