import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Attachment } from '../../../contract/attachments';
import type { PlaybookBody, PlaybookDto, PlaybookReport, PlaybooksReport, TradePlaybookBody, TradePlaybookDto } from '../../../contract/playbooks';
import { writeReportFilterParams, type ReportFilter } from '../../../domain/reports/filter';
import { apiFetch } from '../../lib/api';
import { queryKeys } from '../../shared/api';

// Playbooks' server calls. Reports of playbooks sit under the reports' keys (['trades', ...]), so a trade's change
// refreshes them as it refreshes every report.

/** A playbook's images (chart examples of its setup), newest first. */
export const playbookImagesQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.playbooks.images(id),
    queryFn: () => apiFetch<Attachment[]>(`/api/attachments?playbook_id=${encodeURIComponent(id)}`),
  });

export const playbooksQuery = queryOptions({
  queryKey: queryKeys.playbooks.all,
  queryFn: () => apiFetch<PlaybookDto[]>('/api/playbooks'),
});

const query = (filter: ReportFilter) => {
  const text = writeReportFilterParams(filter).toString();
  return text ? `?${text}` : '';
};

export const playbookReportQuery = (id: string, filter: ReportFilter) =>
  queryOptions({
    queryKey: queryKeys.reports.report('playbook', writeReportFilterParams(filter).toString(), { id }),
    queryFn: () => apiFetch<PlaybookReport>(`/api/playbooks/${id}/report${query(filter)}`),
    placeholderData: keepPreviousData,
  });

/** Every playbook's report over the filter's trades, from `base`: the trader's own reports or a mentor's look. */
export const playbooksReportQuery = (filter: ReportFilter, base = '/api/reports') =>
  queryOptions({
    queryKey: queryKeys.reports.report('playbooks', writeReportFilterParams(filter).toString(), {}, base),
    queryFn: () => apiFetch<PlaybooksReport>(`${base}/playbooks${query(filter)}`),
    placeholderData: keepPreviousData,
  });

export const tradePlaybookQuery = (tradeId: string) =>
  queryOptions({
    queryKey: queryKeys.playbooks.trade(tradeId),
    queryFn: () => apiFetch<TradePlaybookDto>(`/api/trade-playbooks/${tradeId}`),
  });

export const savePlaybook = (id: string | null, body: PlaybookBody) =>
  apiFetch<PlaybookDto>(id ? `/api/playbooks/${id}` : '/api/playbooks', { method: id ? 'PUT' : 'POST', body: JSON.stringify(body) });

export const deletePlaybook = (id: string) => apiFetch<void>(`/api/playbooks/${id}`, { method: 'DELETE' });

export const saveTradePlaybook = (tradeId: string, body: TradePlaybookBody) =>
  apiFetch<TradePlaybookDto>(`/api/trade-playbooks/${tradeId}`, { method: 'PUT', body: JSON.stringify(body) });
