import { Select, type ComboboxItem, type OptionsFilter } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { partialMatchKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { getZoneOffsetName } from '../../domain/dates';
import { ApiError, apiFetch } from '../lib/api';
import { preferencesQuery, queryKeys, type Preferences } from '../shared/api';
import type { PreferencesUpdate } from '../../contract/preferences';

/** 'America/New_York' -> 'America/New York (GMT-05:00)': the zone as a trader searches it, with its offset today. */
function zoneLabel(zone: string, now: Date): string {
  return `${zone.replace(/_/g, ' ')} (${getZoneOffsetName(now, zone) ?? zone})`;
}

/** Every zone the browser knows, plus UTC and the trader's own (which the browser may list under another name). */
function zoneOptions(current: string | undefined): ComboboxItem[] {
  const now = new Date();
  const zones = new Set<string>(current ? [current] : []);
  zones.add('UTC');
  for (const zone of Intl.supportedValuesOf('timeZone')) zones.add(zone);
  return [...zones].sort((a, b) => a.localeCompare(b)).map((zone) => ({ value: zone, label: zoneLabel(zone, now) }));
}

/** Matches 'new york', 'New_York', 'tokyo' or 'GMT+9' alike. */
const byNameOrOffset: OptionsFilter = ({ options, search }) => {
  const words = search.toLowerCase().replace(/_/g, ' ').trim().split(/\s+/).filter(Boolean);
  return (options as ComboboxItem[]).filter((option) => {
    const text = `${option.value} ${option.label}`.toLowerCase().replace(/_/g, ' ');
    return words.every((word) => text.includes(word));
  });
};

/**
 * The trader's time zone (one clock): the header clock, the calendar's days, Reflect, Chat
 * History, trade times and the imports' default all follow it. Saved as soon as it is chosen; every view is read
 * again, since "today" and every shown time may move with it.
 */
export function TimeZoneSetting() {
  const client = useQueryClient();
  const preferences = useQuery(preferencesQuery);
  const current = preferences.data?.time_zone;
  const options = useMemo(() => zoneOptions(current), [current]);
  const save = useMutation({
    mutationFn: (timeZone: string) =>
      apiFetch<PreferencesUpdate>('/api/preferences', { method: 'PATCH', body: JSON.stringify({ time_zone: timeZone }) }),
    onSuccess: (saved) => {
      client.setQueryData<Preferences>(queryKeys.preferences.all, (old) => (old ? { ...old, time_zone: saved.time_zone } : old));
      notifications.show({ color: 'teal', message: `Time zone saved: ${saved.time_zone}` });
      void client.invalidateQueries({
        predicate: (query) => !partialMatchKey(query.queryKey, queryKeys.session.all) && !partialMatchKey(query.queryKey, queryKeys.preferences.all),
      });
    },
    onError: (error) =>
      notifications.show({ color: 'red', message: error instanceof ApiError && error.status < 500 ? error.message : 'Failed to save the time zone' }),
  });
  const value = save.isPending && save.variables ? save.variables : (current ?? null);
  return (
    <Select
      label="Time zone"
      description="Your clock, your days and every time Edgebook shows; imports default to it."
      data={options}
      value={value}
      onChange={(next) => next && next !== current && save.mutate(next)}
      searchable
      filter={byNameOrOffset}
      nothingFoundMessage="No such time zone"
      allowDeselect={false}
      disabled={!preferences.data || save.isPending}
      maxDropdownHeight={280}
      comboboxProps={{ withinPortal: true }}
      data-testid="time-zone-setting"
    />
  );
}
