import { Alert, Anchor, Badge, Button, Checkbox, CopyButton, Group, Loader, MultiSelect, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { CreatedMentorGrant, MentorGrant } from '../../../contract/mentors';
import { RevocableTable } from '../../components/revocable-table';
import { accountsQuery } from '../../shared/api';
import { useTraderTime } from '../../shared/trader-clock';
import { mentorGrantsQuery, useInviteMentor, useRevokeMentor } from './api';

function stateOf(grant: MentorGrant): string {
  if (grant.revoked_at) return 'Revoked';
  return grant.accepted_at ? 'Active' : 'Invited';
}

/** The invitation form: who, and which accounts they will see. The link is shown once, to copy. */
function InviteMentor() {
  const accounts = useQuery(accountsQuery);
  const invite = useInviteMentor();
  const [email, setEmail] = useState('');
  const [accountIds, setAccountIds] = useState<string[]>([]);
  const [shareJournal, setShareJournal] = useState(false);
  const [created, setCreated] = useState<CreatedMentorGrant | null>(null);
  return (
    <Stack gap="xs">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          invite.mutate(
            { email, account_ids: accountIds, share_journal: shareJournal },
            {
              onSuccess: (grant) => {
                setCreated(grant);
                setEmail('');
                setAccountIds([]);
                setShareJournal(false);
              },
            },
          );
        }}
      >
        <Stack gap="xs">
          <TextInput
            label="Mentor's email"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            data-testid="mentor-invite-email"
          />
          <MultiSelect
            label="Accounts your mentor sees"
            placeholder={accountIds.length === 0 ? 'Choose accounts' : undefined}
            data={(accounts.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
            value={accountIds}
            onChange={setAccountIds}
            data-testid="mentor-invite-accounts"
          />
          <Checkbox
            label="Share my daily journal"
            description="Your mentor reads every day's journal beside that day's trades of these accounts."
            checked={shareJournal}
            onChange={(e) => setShareJournal(e.currentTarget.checked)}
            data-testid="mentor-invite-journal"
          />
          <Group justify="flex-end">
            <Button type="submit" loading={invite.isPending} disabled={!email || accountIds.length === 0} data-testid="mentor-invite-submit">
              Invite mentor
            </Button>
          </Group>
        </Stack>
      </form>
      {created && (
        <Alert color="green" variant="light" title="Invitation ready" data-testid="mentor-invite-created">
          <Stack gap={6}>
            <Text size="sm">
              {created.emailed ? `We emailed the link to ${created.email}. ` : ''}Send this link to your mentor; it is shown only now. They sign in
              with their own account to accept it.
            </Text>
            <Group gap="xs" wrap="nowrap">
              <TextInput readOnly value={created.url} flex={1} aria-label="Invitation link" data-testid="mentor-invite-url" />
              <CopyButton value={created.url}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}

/** Settings, Mentors: invite a mentor to chosen accounts, see who accepted, revoke. */
export function MentorsSettings() {
  const grants = useQuery(mentorGrantsQuery);
  const revoke = useRevokeMentor();
  const clock = useTraderTime();
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        A mentor sees the accounts you choose (their trades, Reports, Reflect and prop status), and your daily journal if you share it, and can
        comment on trades and days. They cannot change anything. Their comments are on the{' '}
        <Anchor component={Link} to="/mentor">
          Mentoring
        </Anchor>{' '}
        page.
      </Text>
      <InviteMentor />
      {grants.isPending ? (
        <Loader role="status" aria-label="Loading mentors" />
      ) : grants.isError ? (
        <Text c="var(--mantine-color-error)">Failed to load mentors</Text>
      ) : grants.data.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="mentors-empty">
          You have not invited a mentor yet.
        </Text>
      ) : (
        <RevocableTable
          rows={grants.data}
          headings={['Mentor', 'Accounts', 'Journal', 'Status']}
          live={(grant) => !grant.revoked_at}
          revoke={revoke}
          tableTestId="mentor-grants"
          rowTestId="mentor-grant"
          cells={(grant) => {
            const state = stateOf(grant);
            return [
              <>
                <Text size="sm" fw={500}>
                  {grant.mentor_name ?? grant.email}
                </Text>
                <Text size="xs" c="dimmed">
                  {grant.email}, invited {clock.format(grant.created_at, 'MMM d, yyyy')}
                </Text>
              </>,
              <Group gap={4}>
                {grant.accounts.map((a) => (
                  <Badge key={a.id} size="xs" variant="light">
                    {a.name}
                  </Badge>
                ))}
              </Group>,
              <Text size="sm" c={grant.share_journal ? undefined : 'dimmed'} data-testid="mentor-grant-journal">
                {grant.share_journal ? 'Shared' : 'Not shared'}
              </Text>,
              <Text size="sm" c={state === 'Revoked' ? 'dimmed' : undefined} data-testid="mentor-grant-status">
                {state}
              </Text>,
            ];
          }}
        />
      )}
    </Stack>
  );
}
