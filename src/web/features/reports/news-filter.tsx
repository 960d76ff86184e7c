import { SegmentedControl, Select, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { NewsFilterStatus } from '../../../contract/economic-calendar';
import { NEWS_WINDOWS, type NewsMode, type NewsWindow, type ReportFilter } from '../../../domain/reports/filter';
import { newsFilterStatusQuery } from './api';

const ANY = 'any';
const WINDOW_CHOICES = [{ value: ANY, label: 'Any time' }, ...NEWS_WINDOWS.map((m) => ({ value: String(m), label: `Within ${m} min` }))];
const MODE_CHOICES = [
  { value: 'near', label: 'Near news' },
  { value: 'away', label: 'Away from news' },
];

/**
 * Why the filter could find nothing, or null when it can: no events, neither from a feed nor imported by the trader
 * (Market Data), and then whether a feed is set up at all.
 */
export function newsFilterUnavailable(status: NewsFilterStatus): string | null {
  if (status.events > 0) return null;
  if (!status.feed) return 'Needs an economic calendar feed (ECONOMIC_CALENDAR_URL) or events imported on Market Data';
  return 'No high-impact USD events stored yet';
}

/**
 * Trades entered within minutes of a high-impact USD release, or away from every one (prop firms' news rules). With no
 * events (from the feed or imported) it is disabled and says why, rather than narrowing the reports to nothing. A filter already
 * holding the key (a saved view, a link) stays changeable, so the trader can take it off.
 */
export function NewsFilter({ filter, onChange }: { filter: ReportFilter; onChange: (patch: Partial<ReportFilter>) => void }) {
  const { data: status } = useQuery(newsFilterStatusQuery);
  const reason = status ? newsFilterUnavailable(status) : null;
  const disabled = filter.news === null && (status === undefined || reason !== null);
  return (
    <Stack gap={4}>
      <Select
        label="High-impact USD news"
        data={WINDOW_CHOICES}
        value={filter.news === null ? ANY : String(filter.news)}
        onChange={(value) => onChange(!value || value === ANY ? { news: null, newsMode: 'near' } : { news: Number(value) as NewsWindow })}
        allowDeselect={false}
        disabled={disabled}
        // The reason reads under the field and is its accessible description.
        description={reason && <span data-testid="filter-news-reason">{reason}</span>}
        inputWrapperOrder={['label', 'input', 'description']}
        data-testid="filter-news"
      />
      {filter.news !== null && (
        <SegmentedControl
          size="xs"
          aria-label="Trades near or away from news"
          data={MODE_CHOICES}
          value={filter.newsMode}
          onChange={(newsMode) => onChange({ newsMode: newsMode as NewsMode })}
          data-testid="filter-news-mode"
        />
      )}
    </Stack>
  );
}
