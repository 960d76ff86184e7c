import { Button, Checkbox, Popover, Stack, Text } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconColumns } from '@tabler/icons-react';
import { useCallback, useMemo } from 'react';
import { STORAGE_KEYS } from '../../lib/storage-keys';
import type { ReportColumn } from './report-table';

/** Columns hidden until the trader shows them: the breakdown's columns as they were before these were offered. */
export const BREAKDOWN_HIDDEN_BY_DEFAULT: ReadonlySet<string> = new Set(['gross', 'fees']);

type Choices = Record<string, boolean>;

/** The stored choices, or none when the text is not an object of booleans (an older or hand-edited value). */
export function readColumnChoices(text: string | undefined): Choices {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter(([, shown]) => typeof shown === 'boolean')) as Choices;
  } catch {
    return {};
  }
}

/**
 * Which breakdown columns show, remembered in this browser (a UI preference): the trader's choice for a column,
 * else its default. The first column (the group's name) always shows.
 */
export function useBreakdownColumns() {
  const [choices, setChoices] = useLocalStorage<Choices>({
    key: STORAGE_KEYS.reportBreakdownColumns,
    defaultValue: {},
    getInitialValueInEffect: false,
    serialize: JSON.stringify,
    deserialize: readColumnChoices,
  });
  const isShown = useCallback((id: string) => id === 'label' || (choices[id] ?? !BREAKDOWN_HIDDEN_BY_DEFAULT.has(id)), [choices]);
  const setShown = useCallback((id: string, shown: boolean) => setChoices((current) => ({ ...current, [id]: shown })), [setChoices]);
  return { isShown, setShown };
}

/** The shown columns of a table, in its order. */
export function useShownColumns<T>(columns: ReadonlyArray<ReportColumn<T>>, isShown: (id: string) => boolean) {
  return useMemo(() => columns.filter((c) => isShown(c.id)), [columns, isShown]);
}

/** The column chooser: a checkbox for each column the trader may show or hide. */
export function BreakdownColumnChooser<T>({
  columns,
  isShown,
  setShown,
}: {
  columns: ReadonlyArray<ReportColumn<T>>;
  isShown: (id: string) => boolean;
  setShown: (id: string, shown: boolean) => void;
}) {
  const choosable = columns.filter((c) => c.id !== 'label');
  return (
    <Popover position="bottom-end" width={220} shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <Button size="xs" variant="default" leftSection={<IconColumns size={14} aria-hidden />} data-testid="breakdown-columns-button">
          Columns
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="breakdown-columns">
        <Stack gap={6}>
          <Text size="xs" c="dimmed" fw={600}>
            Show columns
          </Text>
          {choosable.map((c) => (
            <Checkbox
              key={c.id}
              size="xs"
              label={c.header}
              checked={isShown(c.id)}
              onChange={(event) => setShown(c.id, event.currentTarget.checked)}
            />
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
