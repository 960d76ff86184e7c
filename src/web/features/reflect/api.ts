import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AnalysisEvent, PeriodSummaryData, ReflectionPeriod, ReflectionsPageData } from '../../../domain/reflections';
import { computeReflectionStatistics, buildTradingInsights } from '../../../domain/reflections';
import type { ReflectionOverride } from '../../../contract/reflections';
import { apiFetch } from '../../lib/api';
import { postEventStream, readEventStream } from '../../lib/sse';
import { queryKeys, type AccountFilter } from '../../shared/api';

export type { AnalysisReport, AnalysisNotice, AnalysisEvent } from '../../../domain/reflections';
export type ReflectionsPage = ReflectionsPageData;

export interface PeriodQuery {
  period: ReflectionPeriod;
  offset: number;
  account: AccountFilter;
}

const qs = ({ period, offset, account }: PeriodQuery) => new URLSearchParams({ period, offset: String(offset), account }).toString();

export const reflectionsQuery = (q: PeriodQuery) =>
  queryOptions({
    queryKey: queryKeys.trades.reflections(q.period, q.offset, q.account),
    queryFn: () => apiFetch<ReflectionsPage>(`/api/reflections?${qs(q)}`),
  });

export const fetchPeriodSummary = (q: PeriodQuery) => apiFetch<PeriodSummaryData>(`/api/reflections/summary?${qs(q)}`);

export interface OverrideChange {
  tradeId: string;
  followed_rules?: boolean | null;
  tags?: string[];
}

/** The page's data with one reflection changed, and its figures recomputed by the same domain functions. */
function withChange(page: ReflectionsPage, change: OverrideChange): ReflectionsPage {
  const reflections = page.reflections.map((r) =>
    r.tradeId !== change.tradeId
      ? r
      : {
          ...r,
          ...(change.followed_rules !== undefined && { followedRules: change.followed_rules }),
          ...(change.tags !== undefined && { tags: change.tags }),
        },
  );
  const statistics = computeReflectionStatistics(reflections);
  return { ...page, reflections, statistics, insights: buildTradingInsights(statistics) };
}

/**
 * Saves rule adherence or tags at once on screen (optimistic), puts the old value back if the server refuses
 * (failed optimistic updates roll back visibly), and refreshes every cached period afterwards.
 */
export function useSaveReflection(current: PeriodQuery, onError: (error: unknown) => void) {
  const client = useQueryClient();
  const key = queryKeys.trades.reflections(current.period, current.offset, current.account);
  return useMutation({
    mutationFn: ({ tradeId, ...body }: OverrideChange) =>
      apiFetch<ReflectionOverride>(`/api/reflections/${tradeId}`, { method: 'PATCH', body: JSON.stringify(body) }),
    onMutate: async (change) => {
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData<ReflectionsPage>(key);
      if (previous) client.setQueryData(key, withChange(previous, change));
      return { previous };
    },
    onError: (error, _change, context) => {
      if (context?.previous) client.setQueryData(key, context.previous);
      onError(error);
    },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.trades.reflectionsAll }),
  });
}

/** POST /api/analyze-reflections as an event stream: progress, then the report. `signal` cancels it upstream too. */
export async function* streamAnalysis(q: PeriodQuery, signal: AbortSignal): AsyncGenerator<AnalysisEvent> {
  const response = await postEventStream('/api/analyze-reflections', q, signal);
  yield* readEventStream<AnalysisEvent>(response);
}
