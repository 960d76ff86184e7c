import { queryOptions } from '@tanstack/react-query';
import type { MentorCommentList, MentorViewList } from '../../../contract/mentors';
import { apiFetch } from '../../lib/api';
import { queryKeys } from '../../shared/api';

/** The trader's mentors' comments and how many are new: the header's count reads it every couple of minutes. */
export const mentorCommentsQuery = queryOptions({
  queryKey: queryKeys.mentors.comments,
  queryFn: () => apiFetch<MentorCommentList>('/api/mentor-comments'),
  staleTime: 60_000,
  refetchInterval: 120_000,
});

/** Who of the trader's mentors viewed their screens lately, and how many of those days are new: the header counts them too. */
export const mentorViewsQuery = queryOptions({
  queryKey: queryKeys.mentors.views,
  queryFn: () => apiFetch<MentorViewList>('/api/mentor-views'),
  staleTime: 60_000,
  refetchInterval: 120_000,
});
