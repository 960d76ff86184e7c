import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import { queryKeys, type JournalDayDetail, type JournalSave } from '../../shared/api';
import type { JournalDays } from '../../../contract/journal';

/** The day list, or one date when filtered (a date filter). */
export const journalDaysQuery = (date: string) =>
  queryOptions({
    queryKey: queryKeys.journal.days(date),
    queryFn: () => apiFetch<JournalDays>(`/api/journal/days${date ? `?date=${date}` : ''}`),
  });

export const journalDayQuery = (date: string) =>
  queryOptions({
    queryKey: queryKeys.journal.day(date),
    queryFn: () => apiFetch<JournalDayDetail>(`/api/journal/${date}`),
  });

/** Save updates the date's note or creates it; the notebook shows it too. */
export function useSaveJournalNote() {
  const queryClient = useQueryClient();
  return useMutation({
    // `base`: the updated_at the words grew from (null: the day had no note); a newer save elsewhere is a 409.
    mutationFn: ({ date, content, base }: { date: string; content: string; base?: string | null }) =>
      apiFetch<JournalSave>(`/api/journal/${date}`, { method: 'PUT', body: JSON.stringify({ content, ...(base !== undefined && { base_updated_at: base }) }) }),
    onSuccess: (saved) => {
      queryClient.setQueryData<JournalDayDetail>(queryKeys.journal.day(saved.date), (day) => (day ? { ...day, note: saved.note } : day));
      void queryClient.invalidateQueries({ queryKey: queryKeys.journal.daysAll });
      void queryClient.invalidateQueries({ queryKey: queryKeys.notes.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.noteFolders.all });
    },
  });
}
