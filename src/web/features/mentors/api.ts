import { notifications } from '@mantine/notifications';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CreatedMentorGrant,
  MentorComment,
  MentorCommentInput,
  MentorGrant,
  MentoredTrader,
  MentorInviteInput,
  MentorTradePage,
} from '../../../contract/mentors';
import type { JournalDayDetail, JournalDays } from '../../../contract/journal';
import type { PropStatusList } from '../../../contract/prop';
import type { OverviewReport } from '../../../contract/reports';
import type { ReflectionPeriod, ReflectionsPageData } from '../../../domain/reflections';
import { apiFetch } from '../../lib/api';
import { queryKeys } from '../../shared/api';

/** Trades a mentor's page shows at a time. */
export const MENTOR_PAGE_SIZE = 50;

export const mentorGrantsQuery = queryOptions({
  queryKey: queryKeys.mentors.grants,
  queryFn: () => apiFetch<MentorGrant[]>('/api/mentor-grants'),
});

export { mentorCommentsQuery, mentorViewsQuery } from './comments-query';

export const mentoredTradersQuery = queryOptions({
  queryKey: queryKeys.mentors.traders,
  queryFn: () => apiFetch<MentoredTrader[]>('/api/mentor/traders'),
});

export const mentorTradesQuery = (traderId: string, offset: number) =>
  queryOptions({
    queryKey: queryKeys.mentors.trades(traderId, offset),
    queryFn: () => apiFetch<MentorTradePage>(`/api/mentor/${encodeURIComponent(traderId)}/trades?limit=${MENTOR_PAGE_SIZE}&offset=${offset}`),
  });

export const mentorOverviewQuery = (traderId: string) =>
  queryOptions({
    queryKey: queryKeys.mentors.overview(traderId),
    queryFn: () => apiFetch<OverviewReport>(`/api/mentor/${encodeURIComponent(traderId)}/reports/overview?range=all-time`),
  });

export const mentorThreadQuery = (traderId: string) =>
  queryOptions({
    queryKey: queryKeys.mentors.traderComments(traderId),
    queryFn: () => apiFetch<MentorComment[]>(`/api/mentor/${encodeURIComponent(traderId)}/comments`),
  });

const traderPath = (traderId: string, rest: string) => `/api/mentor/${encodeURIComponent(traderId)}/${rest}`;

/** The trader's Reflect page for a period, over the granted accounts ('all') or one of them. */
export const mentorReflectQuery = (traderId: string, period: ReflectionPeriod, offset: number, account: string) =>
  queryOptions({
    queryKey: queryKeys.mentors.reflect(traderId, period, offset, account),
    queryFn: () => apiFetch<ReflectionsPageData>(traderPath(traderId, `reflect?${new URLSearchParams({ period, offset: String(offset), account })}`)),
  });

/** The trader's journal days; a 404 while no live grant shares the journal. */
export const mentorJournalDaysQuery = (traderId: string, account: string) =>
  queryOptions({
    queryKey: queryKeys.mentors.journalDays(traderId, account),
    queryFn: () => apiFetch<JournalDays>(traderPath(traderId, `journal?${new URLSearchParams({ account })}`)),
    retry: false,
  });

export const mentorJournalDayQuery = (traderId: string, account: string, date: string) =>
  queryOptions({
    queryKey: queryKeys.mentors.journalDay(traderId, account, date),
    queryFn: () => apiFetch<JournalDayDetail>(traderPath(traderId, `journal/${date}?${new URLSearchParams({ account })}`)),
  });

/** Where each granted account with a rule set stands. */
export const mentorPropQuery = (traderId: string) =>
  queryOptions({
    queryKey: queryKeys.mentors.prop(traderId),
    queryFn: () => apiFetch<PropStatusList>(traderPath(traderId, 'prop')),
  });

const failed = (fallback: string) => (error: Error) => notifications.show({ color: 'red', message: error.message || fallback });

export function useInviteMentor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MentorInviteInput) => apiFetch<CreatedMentorGrant>('/api/mentor-grants', { method: 'POST', body: JSON.stringify(input) }),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.mentors.grants }),
    onError: failed('Failed to invite the mentor'),
  });
}

export function useRevokeMentor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<null>(`/api/mentor-grants/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'Mentor access revoked' });
      void client.invalidateQueries({ queryKey: queryKeys.mentors.grants });
    },
    onError: failed('Failed to revoke the access'),
  });
}

export function useAcceptInvite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => apiFetch<MentoredTrader>('/api/mentor/accept', { method: 'POST', body: JSON.stringify({ token }) }),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.mentors.traders }),
  });
}

export function usePostMentorComment(traderId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MentorCommentInput) =>
      apiFetch<MentorComment>(`/api/mentor/${encodeURIComponent(traderId)}/comments`, { method: 'POST', body: JSON.stringify(input) }),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.mentors.traderComments(traderId) }),
    onError: failed('Failed to post the comment'),
  });
}

export function useReplyToMentor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: string }) =>
      apiFetch<MentorComment>(`/api/mentor-comments/${id}/reply`, { method: 'POST', body: JSON.stringify({ body }) }),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.mentors.comments }),
    onError: failed('Failed to send the reply'),
  });
}

/**
 * Marks everything new from the trader's mentors as seen: their comments and their views, the header's one count.
 */
export function useMarkMentorNotificationsSeen() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await apiFetch<null>('/api/mentor-comments/seen', { method: 'POST' });
      await apiFetch<null>('/api/mentor-views/seen', { method: 'POST' });
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.mentors.comments });
      void client.invalidateQueries({ queryKey: queryKeys.mentors.views });
    },
    onError: failed('Failed to mark the comments as seen'),
  });
}
