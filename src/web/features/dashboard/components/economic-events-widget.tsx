import { Badge, Group, Loader, SegmentedControl, Stack, Text } from '@mantine/core';
import { formatDay, formatInZone } from '../../../../domain/dates';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { ScrollBox } from '../../../components/scroll-box';
import { queryKeys } from '../../../shared/api';
import { useDashboard } from '../dashboard-context';
import { notifyError } from '../api';

import classes from '../dashboard.module.css';
import { feedEventsOfWeek, loadEconomicWeek, type EconomicEvent } from './economic-events';
import { WidgetCard } from './widget-card';

const IMPACT_COLOR = { high: 'red', medium: 'orange', low: 'yellow', holiday: 'gray', none: 'gray' } as const;
const IMPACT_LABEL = { high: 'high impact', medium: 'medium impact', low: 'low impact', holiday: 'bank holiday', none: 'no impact' } as const;
/** The server reads its feed at most every 30 minutes; asking it as often keeps an open dashboard current. */
const FEED_REFRESH_MS = 30 * 60_000;

/**
 * USD Economic Events: the week of the calendar feed the server reads, times on the trader's clock; without a feed,
 * the local sample week after 500 ms, labelled as mock data.
 */
export function EconomicEventsWidget({ widgetId, onRemove }: { widgetId: string; onRemove?: () => void }) {
  const { today, timeZone } = useDashboard();
  const [view, setView] = useState<'today' | 'week'>('week');
  const events = useQuery({
    queryKey: queryKeys.economicEvents.week(today),
    queryFn: () => loadEconomicWeek(today),
    staleTime: FEED_REFRESH_MS,
    refetchInterval: (query) => (query.state.data?.source === 'feed' ? FEED_REFRESH_MS : false),
    retry: false,
  });

  useEffect(() => {
    if (events.isError) notifyError('Failed to fetch economic calendar data');
  }, [events.isError]);

  const week = events.data;
  const all = useMemo(
    () => (!week ? [] : week.source === 'sample' ? week.events : feedEventsOfWeek(week.events, today, timeZone)),
    [week, today, timeZone],
  );
  const shown = all.filter((e) => view === 'week' || e.day === today);
  const byDay = new Map<string, EconomicEvent[]>();
  for (const event of shown) byDay.set(event.day, [...(byDay.get(event.day) ?? []), event]);

  return (
    <WidgetCard
      widgetId={widgetId}
      anchor="economic-events"
      title="USD Economic Events"
      onRemove={onRemove}
      actions={
        week?.source === 'feed' ? (
          week.stale ? (
            <Badge
              variant="outline"
              color="yellow"
              size="sm"
              data-testid="stale-data-badge"
              title={`Last updated ${formatInZone(week.fetchedAt, timeZone, 'PPpp') ?? ''}`}
            >
              Not updated
            </Badge>
          ) : null
        ) : (
          <Badge variant="outline" color="gray" size="sm" data-testid="mock-data-badge">
            Mock data
          </Badge>
        )
      }
    >
      <SegmentedControl
        size="xs"
        fullWidth
        mb="sm"
        value={view}
        onChange={(v) => setView(v as 'today' | 'week')}
        data={[
          { value: 'today', label: 'Today' },
          { value: 'week', label: 'This Week' },
        ]}
        aria-label="Economic events period"
      />
      <ScrollBox maxHeight={360} tabIndex={0} aria-label="Economic events list">
        {events.isPending ? (
          <Group justify="center" p="md">
            <Loader size="sm" role="status" aria-label="Loading economic events" />
          </Group>
        ) : events.isError && !week ? (
          <Text size="sm" c="var(--mantine-color-error)" ta="center" p="md">
            Failed to fetch economic calendar data
          </Text>
        ) : shown.length === 0 ? (
          <Text size="sm" c="dimmed" ta="center" p="md">
            No events today.
          </Text>
        ) : (
          <Stack gap="sm">
            {[...byDay].map(([day, list]) => (
              <div key={day}>
                <Text size="xs" fw={700} c={day === today ? undefined : 'dimmed'} mb={4} tt="uppercase">
                  {day === today ? 'Today' : formatDay(day, 'EEE, MMM d')}
                </Text>
                <Stack gap={4}>
                  {list.map((e) => (
                    <div key={e.id} className={classes.eventRow} data-testid="economic-event" data-impact={e.impact}>
                      <Text size="xs" c="dimmed" w={40}>
                        {e.time}
                      </Text>
                      <span
                        className={classes.impactDot}
                        style={{ background: `var(--mantine-color-${IMPACT_COLOR[e.impact]}-6)` }}
                        aria-hidden="true"
                      />
                      <div className={classes.eventText}>
                        <Text size="sm" truncate>
                          {e.title}
                        </Text>
                        <Text size="xs" c="dimmed" truncate>
                          Forecast {e.forecast} · Previous {e.previous} · <span className={classes.impactLabel}>{IMPACT_LABEL[e.impact]}</span>
                        </Text>
                      </div>
                    </div>
                  ))}
                </Stack>
              </div>
            ))}
          </Stack>
        )}
      </ScrollBox>
    </WidgetCard>
  );
}
