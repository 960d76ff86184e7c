import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Pagination,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { MentorComment } from '../../../contract/mentors';
import { formatMoney, toCents } from '../../../domain/cents';
import { useTraderTime } from '../../shared/trader-clock';
import {
  MENTOR_PAGE_SIZE,
  mentorCommentsQuery,
  mentoredTradersQuery,
  mentorJournalDaysQuery,
  mentorOverviewQuery,
  mentorThreadQuery,
  mentorTradesQuery,
  mentorViewsQuery,
  useAcceptInvite,
  useMarkMentorNotificationsSeen,
  usePostMentorComment,
  useReplyToMentor,
} from './api';
import { MentorJournal, MentorProp, MentorReflect } from './mentor-screens';
import { ReportsPage } from '../reports/reports-page';
import { mentorReportsSource, ReportsApiBase } from '../reports/reports-source';

/** /mentor: the comments of the trader's mentors and the traders they mentor; /mentor/accept; /mentor/:traderId. */
export function MentoringPage() {
  const { pathname } = useLocation();
  const rest = pathname.replace(/^\/mentor\/?/, '').replace(/\/$/, '');
  if (rest === 'accept') return <AcceptInvite />;
  // /mentor/:traderId, or one of its Reports tabs: /mentor/:traderId/reports/<report>.
  const [traderId, section] = rest.split('/');
  if (traderId) return <MentorView key={traderId} traderId={traderId} reports={section === 'reports'} />;
  return (
    <Stack gap="lg" p="md">
      <Title order={1} size="h2">
        Mentoring
      </Title>
      <MentorInbox />
      <MentorViewsList />
      <MentoredTraders />
    </Stack>
  );
}

/** What a comment is about, in words. */
const aboutOf = (comment: MentorComment) => (comment.trade_id ? (comment.trade_label ?? 'A deleted trade') : `Day ${comment.trade_date}`);

function CommentLine({ comment }: { comment: MentorComment }) {
  const clock = useTraderTime();
  return (
    <Stack gap={2} pl={comment.parent_id ? 'lg' : 0} data-testid="mentor-comment">
      <Text size="xs" c="dimmed">
        {comment.author_name}, {clock.format(comment.created_at, 'MMM d, yyyy, h:mm a')}
      </Text>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="mentor-comment-body">
        {comment.body}
      </Text>
    </Stack>
  );
}

/** The trader's side: their mentors' comments, new ones marked, each answerable. */
function MentorInbox() {
  const comments = useQuery(mentorCommentsQuery);
  const views = useQuery(mentorViewsQuery);
  const seen = useMarkMentorNotificationsSeen();
  const anyNew = (comments.data?.unseen ?? 0) > 0 || (views.data?.views.some((v) => v.new) ?? false);
  return (
    <Card withBorder>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Comments from your mentors
        </Title>
        {anyNew && (
          <Button size="xs" variant="light" loading={seen.isPending} onClick={() => seen.mutate()} data-testid="mentor-comments-seen">
            Mark all as seen
          </Button>
        )}
      </Group>
      {comments.isPending ? (
        <Loader role="status" aria-label="Loading comments" />
      ) : comments.isError ? (
        <Text c="var(--mantine-color-error)">Failed to load comments</Text>
      ) : comments.data.comments.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="mentor-inbox-empty">
          No comments yet. Invite a mentor in Profile Settings, Mentors.
        </Text>
      ) : (
        <Stack gap="md" data-testid="mentor-inbox">
          {comments.data.comments
            .filter((c) => c.parent_id === null)
            .map((comment) => (
              <InboxThread key={comment.id} comment={comment} replies={comments.data.comments.filter((c) => c.parent_id === comment.id).reverse()} />
            ))}
        </Stack>
      )}
    </Card>
  );
}

/** The trader's side: which mentor viewed their screens on which day, the last time in the trader's zone. */
function MentorViewsList() {
  const views = useQuery(mentorViewsQuery);
  const clock = useTraderTime();
  if (!views.data || views.data.views.length === 0) return null;
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        Who viewed your journal
      </Title>
      <Table data-testid="mentor-views">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Mentor</Table.Th>
            <Table.Th>Last seen</Table.Th>
            <Table.Th ta="right">Visits</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {views.data.views.map((view) => (
            <Table.Tr key={`${view.mentor_id}-${view.day}`} data-testid="mentor-view">
              <Table.Td>
                <Group gap="xs">
                  <Text size="sm">{view.mentor_name}</Text>
                  {view.new && (
                    <Badge size="xs" color="blue" data-testid="mentor-view-new">
                      New
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm">
                  {clock.format(view.last_seen_at, 'MMM d, yyyy, h:mm a')} {clock.zoneName(view.last_seen_at)}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{view.count}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

function InboxThread({ comment, replies }: { comment: MentorComment; replies: MentorComment[] }) {
  const reply = useReplyToMentor();
  const [text, setText] = useState('');
  return (
    <Stack gap={6}>
      <Group gap="xs">
        <Text size="sm" fw={600}>
          {comment.trade_id ? (
            <Anchor component={Link} to={`/trade/${comment.trade_id}`}>
              {aboutOf(comment)}
            </Anchor>
          ) : (
            aboutOf(comment)
          )}
        </Text>
        {comment.seen_at === null && (
          <Badge size="xs" color="blue" data-testid="mentor-comment-new">
            New
          </Badge>
        )}
      </Group>
      <CommentLine comment={comment} />
      {replies.map((r) => (
        <CommentLine key={r.id} comment={r} />
      ))}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          reply.mutate({ id: comment.id, body: text }, { onSuccess: () => setText('') });
        }}
      >
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            flex={1}
            size="xs"
            placeholder="Reply"
            aria-label="Reply"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            maxLength={4000}
          />
          <Button type="submit" size="xs" variant="light" disabled={!text.trim()} loading={reply.isPending}>
            Reply
          </Button>
        </Group>
      </form>
    </Stack>
  );
}

/** The mentor's side: the traders who invited them. */
function MentoredTraders() {
  const traders = useQuery(mentoredTradersQuery);
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        Traders you mentor
      </Title>
      {traders.isPending ? (
        <Loader role="status" aria-label="Loading traders" />
      ) : traders.isError ? (
        <Text c="var(--mantine-color-error)">Failed to load traders</Text>
      ) : traders.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          No trader shares their journal with you. Open the link of an invitation to accept it.
        </Text>
      ) : (
        <Stack gap={4} data-testid="mentored-traders">
          {traders.data.map((t) => (
            <Anchor key={t.trader_id} component={Link} to={`/mentor/${t.trader_id}`} data-testid="mentored-trader">
              {t.name} ({t.accounts.map((a) => a.name).join(', ')})
            </Anchor>
          ))}
        </Stack>
      )}
    </Card>
  );
}

/** /mentor/accept#<token>: the signed-in user accepts an invitation, then opens the trader's journal. */
function AcceptInvite() {
  const { hash } = useLocation();
  const navigate = useNavigate();
  const accept = useAcceptInvite();
  const token = hash.replace(/^#/, '');
  return (
    <Stack gap="md" p="md" maw={560}>
      <Title order={1} size="h2">
        Mentor invitation
      </Title>
      {!token ? (
        <Text>This link has no invitation in it. Open the whole link you were sent.</Text>
      ) : (
        <>
          <Text>A trader invited you to see some of their trades and comment on them. You will be able to read, not to change anything.</Text>
          {accept.isError && (
            <Alert color="red" variant="light" data-testid="mentor-accept-error">
              {accept.error.message}
            </Alert>
          )}
          <Group>
            <Button
              loading={accept.isPending}
              onClick={() => accept.mutate(token, { onSuccess: (trader) => void navigate(`/mentor/${trader.trader_id}`, { replace: true }) })}
              data-testid="mentor-accept"
            >
              Accept invitation
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </Card>
  );
}

function CommentForm({ traderId, target, label }: { traderId: string; target: { trade_id: string } | { trade_date: string }; label: string }) {
  const post = usePostMentorComment(traderId);
  const [text, setText] = useState('');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        post.mutate({ ...target, body: text }, { onSuccess: () => setText('') });
      }}
    >
      <Stack gap={4}>
        <Textarea
          size="xs"
          autosize
          minRows={1}
          aria-label={label}
          placeholder={label}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          maxLength={4000}
          data-testid="mentor-comment-input"
        />
        <Group justify="flex-end">
          <Button type="submit" size="xs" variant="light" disabled={!text.trim()} loading={post.isPending} data-testid="mentor-comment-submit">
            Comment
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * /mentor/:traderId: the granted accounts' Trade Log, its overview, and the comments on each trade and day; the Reports
 * tab (its own address, /mentor/:traderId/reports/..., as each report is on the trader's page) draws every report.
 */
function MentorView({ traderId, reports }: { traderId: string; reports: boolean }) {
  const navigate = useNavigate();
  const traders = useQuery(mentoredTradersQuery);
  const [page, setPage] = useState(1);
  const trades = useQuery(mentorTradesQuery(traderId, (page - 1) * MENTOR_PAGE_SIZE));
  const overview = useQuery(mentorOverviewQuery(traderId));
  const thread = useQuery(mentorThreadQuery(traderId));
  // A 404 while no live grant shares the journal: then there is no Journal tab.
  const journal = useQuery(mentorJournalDaysQuery(traderId, 'all'));
  const [tab, setTab] = useState<string | null>('trades');
  const [open, setOpen] = useState<string | null>(null);
  const [day, setDay] = useState('');
  const trader = traders.data?.find((t) => t.trader_id === traderId);
  const shared = trader?.accounts;
  const source = useMemo(() => mentorReportsSource(traderId, shared ?? []), [traderId, shared]);
  if (trades.isError) {
    return (
      <Stack p="md">
        <Title order={1} size="h2">
          Mentor view
        </Title>
        <Text data-testid="mentor-view-unavailable">This trader's journal is not shared with you (or no longer is).</Text>
        <Anchor component={Link} to="/mentor">
          Back to Mentoring
        </Anchor>
      </Stack>
    );
  }
  const comments = thread.data ?? [];
  const byTrade = new Map<string, MentorComment[]>();
  for (const c of [...comments].reverse()) if (c.trade_id) byTrade.set(c.trade_id, [...(byTrade.get(c.trade_id) ?? []), c]);
  const dayComments = comments.filter((c) => !c.trade_id);
  const o = overview.data?.overview;
  const currency = overview.data?.basis.currency ?? 'USD';
  return (
    <Stack gap="md" p="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {trader ? trader.name : 'Mentor view'}
        </Title>
        {trader && (
          <Group gap={4}>
            {trader.accounts.map((a) => (
              <Badge key={a.id} variant="light">
                {a.name}
              </Badge>
            ))}
          </Group>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        Read only: you see the shared accounts and comment on trades and days.
      </Text>
      <Tabs
        value={reports ? 'reports' : tab}
        onChange={(next) => {
          if (next === 'reports') return void navigate(source.pagePath);
          setTab(next);
          if (reports) void navigate(`/mentor/${encodeURIComponent(traderId)}`);
        }}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="trades">Trade Log</Tabs.Tab>
          <Tabs.Tab value="reports" data-testid="mentor-tab-reports">
            Reports
          </Tabs.Tab>
          <Tabs.Tab value="reflect">Reflect</Tabs.Tab>
          {journal.isSuccess && <Tabs.Tab value="journal">Journal</Tabs.Tab>}
          <Tabs.Tab value="prop">Prop</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="reflect">
          <MentorReflect traderId={traderId} accounts={trader?.accounts ?? []} />
        </Tabs.Panel>
        {journal.isSuccess && (
          <Tabs.Panel value="journal">
            <MentorJournal traderId={traderId} days={journal.data} />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="prop">
          <MentorProp traderId={traderId} />
        </Tabs.Panel>
        <Tabs.Panel value="reports">
          <ReportsApiBase.Provider value={source}>
            <ReportsPage />
          </ReportsApiBase.Provider>
        </Tabs.Panel>
        <Tabs.Panel value="trades">
          <Stack gap="md">
            {o && (
              <SimpleGrid cols={{ base: 2, sm: 4 }} data-testid="mentor-overview">
                <Figure label="Net P&L" value={formatMoney(o.netCents, currency)} />
                <Figure label="Trades" value={String(o.trades)} />
                <Figure label="Win Rate" value={o.winRate === null ? '-' : `${o.winRate.toFixed(1)}%`} />
                <Figure label="Profit Factor" value={o.profitFactor === null ? '-' : o.profitFactor.toFixed(2)} />
              </SimpleGrid>
            )}
            <Card withBorder>
              <Title order={2} size="h5" mb="xs">
                Comments on days
              </Title>
              <Stack gap="xs">
                {dayComments.map((c) => (
                  <Fragment key={c.id}>
                    <Text size="xs" fw={600}>
                      {aboutOf(c)}
                    </Text>
                    <CommentLine comment={c} />
                  </Fragment>
                ))}
                <TextInput size="xs" type="date" label="Day" value={day} onChange={(e) => setDay(e.currentTarget.value)} maw={200} />
                {day && <CommentForm traderId={traderId} target={{ trade_date: day }} label={`Comment on ${day}`} />}
              </Stack>
            </Card>
            {trades.isPending ? (
              <Loader role="status" aria-label="Loading trades" />
            ) : (
              <>
                <Table.ScrollContainer minWidth={620}>
                  <Table verticalSpacing="xs" data-testid="mentor-trades">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Date</Table.Th>
                        <Table.Th>Symbol</Table.Th>
                        <Table.Th>Side</Table.Th>
                        <Table.Th>Account</Table.Th>
                        <Table.Th>P&L</Table.Th>
                        <Table.Th>Comments</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {trades.data.trades.map((t) => {
                        const mine = byTrade.get(t.id) ?? [];
                        return (
                          <Fragment key={t.id}>
                            <Table.Tr data-testid="mentor-trade">
                              <Table.Td>{t.date}</Table.Td>
                              <Table.Td>{t.symbol}</Table.Td>
                              <Table.Td>{t.side ?? ''}</Table.Td>
                              <Table.Td>{t.account_name ?? ''}</Table.Td>
                              <Table.Td>{formatMoney(toCents(t.pnl))}</Table.Td>
                              <Table.Td>
                                <Button
                                  size="compact-xs"
                                  variant="subtle"
                                  onClick={() => setOpen(open === t.id ? null : t.id)}
                                  data-testid="mentor-trade-comments"
                                >
                                  {mine.length > 0 ? `${mine.length} comment${mine.length === 1 ? '' : 's'}` : 'Comment'}
                                </Button>
                              </Table.Td>
                            </Table.Tr>
                            {open === t.id && (
                              <Table.Tr>
                                <Table.Td colSpan={6}>
                                  <Stack gap="xs">
                                    {t.notes && (
                                      <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
                                        {t.notes}
                                      </Text>
                                    )}
                                    {mine.map((c) => (
                                      <CommentLine key={c.id} comment={c} />
                                    ))}
                                    <CommentForm traderId={traderId} target={{ trade_id: t.id }} label="Comment on this trade" />
                                  </Stack>
                                </Table.Td>
                              </Table.Tr>
                            )}
                          </Fragment>
                        );
                      })}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
                {trades.data.total === 0 && (
                  <Text size="sm" c="dimmed">
                    No trades in the shared accounts yet.
                  </Text>
                )}
                {trades.data.total > MENTOR_PAGE_SIZE && (
                  <Pagination value={page} onChange={setPage} total={Math.ceil(trades.data.total / MENTOR_PAGE_SIZE)} />
                )}
              </>
            )}
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
