import '@mantine/dates/styles.css';
import {
  Badge,
  Button,
  Chip,
  CloseButton,
  Collapse,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconCalendar, IconChevronDown, IconChevronUp, IconFilter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { isCalendarDay } from '../../../domain/dates';
import {
  createReportFilter,
  DATE_PRESET_LABELS,
  DATE_PRESETS,
  describeHours,
  formatHour,
  formatSize,
  HOLD_BUCKETS,
  TAG_MODE_LABELS,
  TAG_MODES,
  TRADE_RESULTS,
  UNASSIGNED,
  WEEKDAY_LABELS,
  WEEKDAY_SHORT,
  type DatePreset,
  type HoldBucketId,
  type ReportFilter,
  type TagMode,
  type TradeResult,
  type WithWithout,
  describeRRange,
  describeNews,
} from '../../../domain/reports/filter';
import { accountsQuery } from '../../shared/api';
import { mistakeTagsQuery, reportOptionsQuery } from './api';
import { useReportsSource } from './reports-source';
import { playbooksQuery } from '../playbooks/api';
import { NewsFilter } from './news-filter';
import classes from './reports.module.css';

const HOURS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `${formatHour(h)}-${h === 23 ? '24:00' : formatHour(h + 1)}` }));
type ListKey = 'symbol' | 'contract' | 'side' | 'setup' | 'session' | 'tag';
const RESULT_LABELS: Record<TradeResult, string> = { Win: 'Win', Loss: 'Loss', BE: 'Break-even' };
/** Below Mantine's sm breakpoint (768 px), as the shell's phone layout. */
const PHONE_QUERY = '(max-width: 47.99em)';

interface FilterBarProps {
  filter: ReportFilter;
  onChange: (next: ReportFilter) => void;
  /** Shown at the end of the first row (Open in Trade Log, Print). */
  actions?: ReactNode;
  /** A name for the bar's region ('Filters', 'Filter set B'). */
  label?: string;
  /** Shown as the bar's heading (Compare names its two sets). */
  title?: string;
  testId?: string;
}

/**
 * The one filter bar: date range, accounts, and under "More filters" every other key of the filter
 * model. Every change goes into the URL through `onChange`; the active keys show as chips that remove themselves.
 * On a phone the whole bar folds into one Filters button that counts the active filters, so that the report's
 * figures start near the top of the screen rather than under a screenful of fields.
 */
export function FilterBar({ filter, onChange, actions, label = 'Filters', title, testId = 'report-filters' }: FilterBarProps) {
  // Closed at first: the chips under the bar say which filters are on.
  const [open, setOpen] = useState(false);
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const [unfolded, setUnfolded] = useState(false);
  const moreId = useId();
  const foldId = useId();
  const activeCount = activeFilterChips(
    filter,
    () => '',
    () => '',
  ).length;
  const source = useReportsSource();
  const { data: options } = useQuery(reportOptionsQuery(source.base));
  // A mentor's page offers the shared accounts; the signed-in user's own accounts and mistake tags are not the trader's.
  const own = useQuery({ ...accountsQuery, enabled: source.accounts === null });
  const accounts = source.accounts ?? own.data;
  const { data: mistakeTags } = useQuery({ ...mistakeTagsQuery, enabled: !source.readOnly });
  const set = (patch: Partial<ReportFilter>) => onChange({ ...filter, ...patch });
  const accountName = (id: string) => (id === UNASSIGNED ? 'Unassigned' : (accounts?.find((a) => a.id === id)?.name ?? 'Unknown account'));
  const choices = (values: readonly string[] | undefined, chosen: readonly string[]) => [...new Set([...(values ?? []), ...chosen])];
  /** A key of the filter that is a list of names: the names the trader's trades hold, and any chosen one no longer held. */
  const listFilter = (
    key: ListKey,
    label: string,
    testId: string,
    { known = options?.[key], searchable = true }: { known?: readonly string[]; searchable?: boolean } = {},
  ) => (
    <MultiSelect
      label={label}
      placeholder={filter[key].length ? undefined : 'Any'}
      data={choices(known, filter[key])}
      value={filter[key]}
      onChange={(values) => set({ [key]: values })}
      searchable={searchable}
      clearable
      data-testid={testId}
    />
  );

  const actionGroup = actions && (
    <Group gap="xs" ml={{ base: 0, md: 'auto' }} className={classes.noPrint}>
      {actions}
    </Group>
  );
  const fields = (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Date range"
          data={DATE_PRESETS.map((p) => ({ value: p, label: DATE_PRESET_LABELS[p] }))}
          value={filter.range}
          onChange={(value) => value && set({ range: value as DatePreset, from: null, to: null })}
          allowDeselect={false}
          w={{ base: '100%', xs: 170 }}
          data-testid="filter-range"
        />
        {filter.range === 'custom' && (
          <DatePickerInput
            type="range"
            label="Days"
            placeholder="Pick the first and last day"
            styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
            value={[filter.from, filter.to]}
            onChange={([from, to]) => set({ from: from && isCalendarDay(from) ? from : null, to: to && isCalendarDay(to) ? to : null })}
            valueFormat="MMM D, YYYY"
            allowSingleDateInRange
            leftSection={<IconCalendar size={16} aria-hidden="true" />}
            previousLabel="Previous month"
            nextLabel="Next month"
            w={{ base: '100%', xs: 260 }}
            data-testid="filter-days"
          />
        )}
        <MultiSelect
          label="Accounts"
          placeholder={filter.account.length === 0 ? 'All accounts' : undefined}
          styles={{ inputField: { minWidth: 80 } }}
          data={[
            ...(accounts ?? []).map((a) => ({ value: a.id, label: a.name })),
            // The trades without an account are never shared with a mentor.
            ...(source.readOnly ? [] : [{ value: UNASSIGNED, label: 'Unassigned' }]),
          ]}
          value={filter.account}
          onChange={(account) => set({ account })}
          clearable
          w={{ base: '100%', xs: 260 }}
          data-testid="filter-accounts"
        />
        <Button
          variant={open ? 'light' : 'default'}
          leftSection={<IconAdjustmentsHorizontal size={16} aria-hidden="true" />}
          rightSection={open ? <IconChevronUp size={14} aria-hidden="true" /> : <IconChevronDown size={14} aria-hidden="true" />}
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-controls={moreId}
          data-testid="filter-more"
        >
          More filters
        </Button>
        {!phone && actionGroup}
      </Group>

      <Collapse expanded={open} id={moreId} keepMounted={false}>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm" verticalSpacing="sm" className={classes.noPrint}>
          <Stack gap={4}>
            {listFilter('symbol', 'Instrument', 'filter-symbol')}
            <Switch
              size="xs"
              label="Micros with their full-size contract (NQ with MNQ, ES with MES)"
              checked={filter.markets === 'grouped'}
              onChange={(event) => set({ markets: event.currentTarget.checked ? 'grouped' : null })}
              data-testid="filter-markets"
            />
          </Stack>
          {listFilter('contract', 'Contract', 'filter-contract')}
          {listFilter('side', 'Side', 'filter-side', { known: options?.side ?? ['Long', 'Short'], searchable: false })}
          {listFilter('setup', 'Setup / type', 'filter-setup')}
          <PlaybookFilter value={filter.playbook} onChange={(playbook) => set({ playbook })} />
          {listFilter('session', 'Session', 'filter-session', { searchable: false })}
          <Stack gap={4}>
            {listFilter('tag', 'Tags', 'filter-tags')}
            <SegmentedControl
              size="xs"
              aria-label="Tags must match"
              data={TAG_MODES.map((m) => ({ value: m, label: TAG_MODE_LABELS[m] }))}
              value={filter.tagMode}
              onChange={(tagMode) => set({ tagMode: tagMode as TagMode })}
              data-testid="filter-tag-mode"
            />
          </Stack>
          <MultiSelect
            label="Hour of entry"
            placeholder={filter.hour.length ? undefined : 'Any'}
            data={HOURS}
            value={filter.hour.map(String)}
            onChange={(hours) => set({ hour: hours.map(Number).sort((a, b) => a - b) })}
            clearable
            data-testid="filter-hour"
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id={`${moreId}-size`}>
              Position size
            </Text>
            <Group gap="xs" wrap="nowrap" role="group" aria-labelledby={`${moreId}-size`}>
              <NumberInput
                aria-label="Position size from"
                placeholder="From"
                min={0}
                value={filter.sizeMin ?? ''}
                onChange={(value) => set({ sizeMin: typeof value === 'number' ? value : null })}
                data-testid="filter-size-min"
              />
              <NumberInput
                aria-label="Position size to"
                placeholder="To"
                min={0}
                value={filter.sizeMax ?? ''}
                onChange={(value) => set({ sizeMax: typeof value === 'number' ? value : null })}
                data-testid="filter-size-max"
              />
            </Group>
          </Stack>
          <Stack gap={4}>
            <Text size="sm" fw={500} id={`${moreId}-r`}>
              R-multiple
            </Text>
            <Group gap="xs" wrap="nowrap" role="group" aria-labelledby={`${moreId}-r`}>
              <NumberInput
                aria-label="R-multiple from"
                placeholder="From"
                decimalScale={2}
                step={0.5}
                suffix="R"
                value={filter.rMin ?? ''}
                onChange={(value) => set({ rMin: typeof value === 'number' ? value : null })}
                data-testid="filter-r-min"
              />
              <NumberInput
                aria-label="R-multiple to"
                placeholder="To"
                decimalScale={2}
                step={0.5}
                suffix="R"
                value={filter.rMax ?? ''}
                onChange={(value) => set({ rMax: typeof value === 'number' ? value : null })}
                data-testid="filter-r-max"
              />
            </Group>
          </Stack>
          <WithWithoutRow
            label="Planned risk"
            value={filter.risk}
            // An R range is of trades with a planned risk: 'without' clears it.
            onChange={(risk) => set(risk === 'without' ? { risk, rMin: null, rMax: null } : { risk })}
            testId="filter-risk"
          />
          <Stack gap={4}>
            <WithWithoutRow label="Mistakes" value={filter.mistakes} onChange={(mistakes) => set({ mistakes })} testId="filter-mistakes" />
            <MultiSelect
              aria-label="Given mistakes"
              placeholder={filter.mistake.length ? undefined : 'Any mistake'}
              data={choices(mistakeTags?.tags, filter.mistake)}
              value={filter.mistake}
              onChange={(mistake) => set({ mistake })}
              searchable
              clearable
              nothingFoundMessage="Mark tags as mistakes in the Mistakes report"
              data-testid="filter-mistake"
            />
          </Stack>
          <ChipRow label="Result" testId="filter-result">
            <Chip.Group multiple value={filter.result} onChange={(values) => set({ result: values as TradeResult[] })}>
              {TRADE_RESULTS.map((r) => (
                <Chip key={r} value={r} size="xs">
                  {RESULT_LABELS[r]}
                </Chip>
              ))}
            </Chip.Group>
          </ChipRow>
          <ChipRow label="Day of week" testId="filter-weekday">
            <Chip.Group multiple value={filter.weekday.map(String)} onChange={(values) => set({ weekday: values.map(Number).sort((a, b) => a - b) })}>
              {[1, 2, 3, 4, 5, 6, 7].map((d) => (
                <Chip key={d} value={String(d)} size="xs" aria-label={WEEKDAY_LABELS[d]}>
                  {WEEKDAY_SHORT[d]}
                </Chip>
              ))}
            </Chip.Group>
          </ChipRow>
          <ChipRow label="Hold time" testId="filter-hold">
            <Chip.Group multiple value={filter.hold} onChange={(values) => set({ hold: values as HoldBucketId[] })}>
              {HOLD_BUCKETS.map((b) => (
                <Chip key={b.id} value={b.id} size="xs">
                  {b.label}
                </Chip>
              ))}
            </Chip.Group>
          </ChipRow>
          <NewsFilter filter={filter} onChange={set} />
        </SimpleGrid>
      </Collapse>

      <ActiveFilters filter={filter} onChange={onChange} accountName={accountName} />
    </Stack>
  );

  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      component="section"
      aria-label={label}
      className={`${classes.filterBar} ${classes.noPrint}`}
      data-testid={testId}
    >
      <Stack gap="sm">
        {title && (
          <Text fw={700} size="sm">
            {title}
          </Text>
        )}
        {phone ? (
          <>
            <Group gap="xs" wrap="wrap">
              <Button
                variant={unfolded ? 'light' : 'default'}
                leftSection={<IconFilter size={16} aria-hidden="true" />}
                rightSection={
                  activeCount > 0 ? (
                    <Badge size="sm" circle data-testid="filter-toggle-count">
                      {activeCount}
                      <span className={classes.srOnly}> active</span>
                    </Badge>
                  ) : undefined
                }
                onClick={() => setUnfolded((u) => !u)}
                aria-expanded={unfolded}
                aria-controls={foldId}
                data-testid="filter-toggle"
              >
                Filters
              </Button>
              {actionGroup}
            </Group>
            <Collapse expanded={unfolded} id={foldId} keepMounted={false}>
              {fields}
            </Collapse>
          </>
        ) : (
          fields
        )}
      </Stack>
    </Paper>
  );
}

/** Any / With / Without, for the planned risk and the mistakes. */
function WithWithoutRow({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: WithWithout | null;
  onChange: (value: WithWithout | null) => void;
  testId: string;
}) {
  return (
    <ChipRow label={label} testId={testId}>
      <SegmentedControl
        size="xs"
        aria-label={label}
        data={[
          { value: 'any', label: 'Any' },
          { value: 'with', label: 'With' },
          { value: 'without', label: 'Without' },
        ]}
        value={value ?? 'any'}
        onChange={(next) => onChange(next === 'with' || next === 'without' ? next : null)}
      />
    </ChipRow>
  );
}

function ChipRow({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  const id = useId();
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} id={id}>
        {label}
      </Text>
      <Group gap={6} role="group" aria-labelledby={id} data-testid={testId}>
        {children}
      </Group>
    </Stack>
  );
}

interface FilterChip {
  key: string;
  text: string;
  clear: Partial<ReportFilter>;
}

/** The keys that narrow the trades, one chip each with its text and what removing it clears. */
function activeFilterChips(filter: ReportFilter, accountName: (id: string) => string, playbookName: (id: string) => string): FilterChip[] {
  const chips: FilterChip[] = [];
  const or = (values: readonly string[]) => values.join(', ');
  if (filter.range !== 'all-time') {
    const text = filter.range === 'custom' ? `${filter.from ?? '…'} to ${filter.to ?? '…'}` : DATE_PRESET_LABELS[filter.range];
    chips.push({ key: 'range', text, clear: { range: 'all-time', from: null, to: null } });
  }
  if (filter.account.length) chips.push({ key: 'account', text: `Accounts: ${or(filter.account.map(accountName))}`, clear: { account: [] } });
  if (filter.symbol.length) chips.push({ key: 'symbol', text: `Instrument: ${or(filter.symbol)}`, clear: { symbol: [] } });
  if (filter.contract.length) chips.push({ key: 'contract', text: `Contract: ${or(filter.contract)}`, clear: { contract: [] } });
  if (filter.side.length) chips.push({ key: 'side', text: `Side: ${or(filter.side)}`, clear: { side: [] } });
  if (filter.setup.length) chips.push({ key: 'setup', text: `Setup: ${or(filter.setup)}`, clear: { setup: [] } });
  if (filter.playbook.length) chips.push({ key: 'playbook', text: `Playbook: ${or(filter.playbook.map(playbookName))}`, clear: { playbook: [] } });
  if (filter.session.length) chips.push({ key: 'session', text: `Session: ${or(filter.session)}`, clear: { session: [] } });
  if (filter.tag.length)
    chips.push({ key: 'tag', text: `Tags ${TAG_MODE_LABELS[filter.tagMode]}: ${or(filter.tag)}`, clear: { tag: [], tagMode: 'any' } });
  if (filter.result.length) chips.push({ key: 'result', text: `Result: ${or(filter.result.map((r) => RESULT_LABELS[r]))}`, clear: { result: [] } });
  if (filter.weekday.length)
    chips.push({ key: 'weekday', text: `Day: ${or(filter.weekday.map((d) => WEEKDAY_SHORT[d] ?? String(d)))}`, clear: { weekday: [] } });
  if (filter.hour.length) chips.push({ key: 'hour', text: `Entry: ${describeHours(filter.hour)}`, clear: { hour: [] } });
  if (filter.hold.length)
    chips.push({ key: 'hold', text: `Hold: ${or(filter.hold.map((h) => HOLD_BUCKETS.find((b) => b.id === h)?.label ?? h))}`, clear: { hold: [] } });
  if (filter.sizeMin !== null || filter.sizeMax !== null) {
    const text = `Size: ${filter.sizeMin === null ? 'up to' : formatSize(filter.sizeMin)}${filter.sizeMin !== null && filter.sizeMax !== null ? '-' : ' '}${filter.sizeMax === null ? 'or more' : formatSize(filter.sizeMax)}`;
    chips.push({ key: 'size', text, clear: { sizeMin: null, sizeMax: null } });
  }
  if (filter.rMin !== null || filter.rMax !== null)
    chips.push({ key: 'r', text: describeRRange(filter.rMin, filter.rMax), clear: { rMin: null, rMax: null } });
  if (filter.risk !== null)
    chips.push({ key: 'risk', text: filter.risk === 'with' ? 'With a planned risk' : 'Without a planned risk', clear: { risk: null } });
  if (filter.mistakes !== null)
    chips.push({ key: 'mistakes', text: filter.mistakes === 'with' ? 'With a mistake' : 'Without a mistake', clear: { mistakes: null } });
  if (filter.mistake.length) chips.push({ key: 'mistake', text: `Mistake: ${or(filter.mistake)}`, clear: { mistake: [] } });
  if (filter.news !== null) {
    const text = describeNews(filter.news, filter.newsMode);
    chips.push({ key: 'news', text: text[0]!.toUpperCase() + text.slice(1), clear: { news: null, newsMode: 'near' } });
  }
  return chips;
}

/** The narrowing keys as chips, each removable, and "Clear all". */
function ActiveFilters({
  filter,
  onChange,
  accountName,
}: {
  filter: ReportFilter;
  onChange: (f: ReportFilter) => void;
  accountName: (id: string) => string;
}) {
  // The playbooks are the signed-in user's own: a mentor's page names none.
  const { data: playbooks } = useQuery({ ...playbooksQuery, enabled: !useReportsSource().readOnly });
  const chips = activeFilterChips(filter, accountName, (id) => playbooks?.find((p) => p.id === id)?.name ?? 'Unknown playbook');
  if (chips.length === 0) return null;
  return (
    <Group gap={6} data-testid="active-filters">
      {chips.map((chip) => (
        <Badge
          key={chip.key}
          variant="light"
          size="lg"
          tt="none"
          fw={500}
          rightSection={
            <CloseButton
              size="xs"
              aria-label={`Remove filter ${chip.text}`}
              onClick={() => onChange({ ...filter, ...chip.clear })}
              className={classes.noPrint}
            />
          }
          data-testid={`active-filter-${chip.key}`}
        >
          {chip.text}
        </Badge>
      ))}
      <Button
        variant="subtle"
        size="compact-sm"
        onClick={() => onChange(createReportFilter())}
        className={classes.noPrint}
        data-testid="clear-filters"
      >
        Clear all
      </Button>
    </Group>
  );
}

/** The trader's playbooks by name (the filter keeps their ids). */
function PlaybookFilter({ value, onChange }: { value: string[]; onChange: (ids: string[]) => void }) {
  // The playbooks are the signed-in user's own: a mentor's page names none.
  const { data: playbooks } = useQuery({ ...playbooksQuery, enabled: !useReportsSource().readOnly });
  const known = (playbooks ?? []).map((p) => ({ value: p.id, label: p.name }));
  const data = [...known, ...value.filter((id) => !known.some((p) => p.value === id)).map((id) => ({ value: id, label: 'Unknown playbook' }))];
  return (
    <MultiSelect
      label="Playbook"
      placeholder={value.length ? undefined : 'Any'}
      data={data}
      value={value}
      onChange={onChange}
      searchable
      clearable
      data-testid="filter-playbook"
    />
  );
}
