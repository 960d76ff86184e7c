import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../lib/api';
import { isSignedOutError, SIGNED_OUT_WORDS } from '../../lib/session-expiry';
import type { OnboardingResult } from '../../../contract/config';
import { queryKeys, type Preferences, type Profile, type Task } from '../../shared/api';

/** Dashboard mutations (each invalidates exactly what it changes). */

export const notifyError = (message: string) => notifications.show({ color: 'red', message });

/** A failure toast; a request refused because the session ended adds the spec's words for it. */
const notifyFailure = (message: string, error: unknown, signedOut: string) =>
  isSignedOutError(error) ? notifications.show({ color: 'red', title: message, message: signedOut }) : notifyError(message);
export const notifySuccess = (message: string) => notifications.show({ color: 'green', message });

export type PreferencesPatch = Partial<Pick<Preferences, 'widgets' | 'layout' | 'stats_widgets_order' | 'quick_note' | 'theme'>>;

/**
 * PATCH /api/preferences, applied to the cache first so a drag or a note never waits for the network; on
 * failure the previous value comes back.
 */
export function useUpdatePreferences(options: { errorMessage?: string } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: PreferencesPatch) => apiFetch<Preferences>('/api/preferences', { method: 'PATCH', body: JSON.stringify(patch) }),
    onMutate: async (patch) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.preferences.all });
      const previous = queryClient.getQueryData<Preferences>(queryKeys.preferences.all);
      if (previous) queryClient.setQueryData<Preferences>(queryKeys.preferences.all, { ...previous, ...patch });
      return { previous };
    },
    onError: (_error, _patch, context) => {
      if (context?.previous) queryClient.setQueryData(queryKeys.preferences.all, context.previous);
      if (options.errorMessage) notifyError(options.errorMessage);
    },
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.preferences.all, saved),
  });
}

/** The browser's own zone, if it names one the server will know. */
function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sample trades and onboarding tasks for a new trader; the server makes it exactly once. With them,
 * once, the trader's clock starts as this browser's; Profile Settings changes it afterwards.
 */
export async function runOnboarding(): Promise<OnboardingResult> {
  const timeZone = browserTimeZone();
  const post = (body: object) => apiFetch<OnboardingResult>('/api/onboarding', { method: 'POST', body: JSON.stringify(body) });
  try {
    return await post(timeZone ? { time_zone: timeZone } : {});
  } catch (error) {
    // A zone this browser knows and the server does not: the samples still come, in New York time.
    if (timeZone && error instanceof ApiError && error.status === 400) return post({});
    throw error;
  }
}

export function useTaskMutations(date: string) {
  const queryClient = useQueryClient();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: queryKeys.tasks.all });

  const create = useMutation({
    mutationFn: (input: { title: string; category: string; recurring: boolean }) =>
      apiFetch<Task>('/api/tasks', { method: 'POST', body: JSON.stringify({ ...input, task_date: date }) }),
    onSuccess: (task) => {
      queryClient.setQueryData<Task[]>(queryKeys.tasks.byDate(date), (tasks) => (tasks ? [...tasks, task] : [task]));
      notifySuccess('Task added!');
      void invalidate();
    },
    onError: (error) => notifyFailure('Failed to create task', error, SIGNED_OUT_WORDS.tasks),
  });

  const toggle = useMutation({
    mutationFn: (task: Task) => apiFetch<Task>(`/api/tasks/${task.id}`, { method: 'PATCH', body: JSON.stringify({ completed: !task.completed }) }),
    onMutate: async (task) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.tasks.byDate(date) });
      const previous = queryClient.getQueryData<Task[]>(queryKeys.tasks.byDate(date));
      queryClient.setQueryData<Task[]>(queryKeys.tasks.byDate(date), (tasks) =>
        tasks?.map((t) => (t.id === task.id ? { ...t, completed: !task.completed } : t)),
      );
      return { previous };
    },
    onSuccess: (task) => {
      notifySuccess(task.completed ? 'Task completed!' : 'Task unchecked');
      void invalidate();
    },
    onError: (_e, _task, context) => {
      if (context?.previous) queryClient.setQueryData(queryKeys.tasks.byDate(date), context.previous);
      notifyError('Failed to update task');
    },
  });

  const remove = useMutation({
    mutationFn: (task: Task) => apiFetch<null>(`/api/tasks/${task.id}`, { method: 'DELETE' }),
    onSuccess: (_r, task) => {
      queryClient.setQueryData<Task[]>(queryKeys.tasks.byDate(date), (tasks) => tasks?.filter((t) => t.id !== task.id));
      notifySuccess('Task deleted!');
      void invalidate();
    },
    onError: (error) => notifyFailure('Failed to delete task', error, SIGNED_OUT_WORDS.tasks),
  });

  return { create, toggle, remove };
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: { display_name: string; first_name: string; last_name: string }) =>
      apiFetch<Profile>('/api/profile', { method: 'PATCH', body: JSON.stringify(patch) }),
    onSuccess: (profile) => {
      queryClient.setQueryData(queryKeys.profile.all, profile);
      notifySuccess('Profile updated successfully!');
    },
    onError: (error) => notifyFailure('Failed to save profile. Please try again.', error, SIGNED_OUT_WORDS.profile),
  });
}

/** Multipart upload of the cropped picture; the server checks the type from the bytes and the size again. */
export function useUploadAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (blob: Blob) => {
      const form = new FormData();
      form.set('file', blob, 'avatar.jpg');
      // Not apiFetch: the browser must set the multipart Content-Type with its boundary.
      const response = await fetch('/api/profile/avatar', { method: 'POST', body: form, credentials: 'same-origin' });
      const body = (await response.json().catch(() => null)) as (Profile & { error?: string }) | null;
      if (!response.ok) throw new ApiError(response.status, body?.error ?? `Request failed (${response.status})`);
      return body as Profile;
    },
    onSuccess: (profile) => {
      queryClient.setQueryData(queryKeys.profile.all, profile);
      notifySuccess('Profile picture updated successfully!');
    },
    onError: (error) => notifyError(`Failed to upload image: ${error instanceof ApiError ? error.message : 'network error'}`),
  });
}
