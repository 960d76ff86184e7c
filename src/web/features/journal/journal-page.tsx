import '@mantine/dates/styles.css';
import { Button, Card, Group, Loader, ScrollArea, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { notifications } from '@mantine/notifications';
import { IconCalendar } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { format } from 'date-fns';
import { Fragment, useEffect, useRef, useState } from 'react';
import { isCalendarDay } from '../../../domain/dates';
import { NOTE_CONTENT_MAX, selectJournalDate } from '../../../domain/notes';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DraftNotice, SavedElsewhereNotice } from '../../components/draft-notice';
import { PageHeader } from '../../components/page-header';
import { PnlValue } from '../../components/pnl-value';
import { ApiError } from '../../lib/api';
import { isSignedOutError, SIGNED_OUT_WORDS } from '../../lib/session-expiry';
import { toastError } from '../../lib/toast';
import type { AccountFilter } from '../../shared/api';
import { useTraderTime } from '../../shared/trader-clock';
import { useDraft } from '../../shared/use-draft';
import { journalDayQuery, journalDaysQuery, useSaveJournalNote } from './api';
import { DayRow, DayTrades } from './day-parts';
import classes from './journal.module.css';
import { ShareButton } from '../sharing';
import { AccountSelector, useAccountChoice, useAccounts } from '../accounts';

/** A 'yyyy-MM-dd' day as a local date at noon, for display only. */
const asDate = (day: string) => new Date(`${day}T12:00:00`);

const isText = (value: unknown): value is string => typeof value === 'string';
const sameText = (a: string, b: string) => a === b;

function DayEditor({
  date,
  account,
  onDirtyChange,
  discardRef,
}: {
  date: string;
  account: AccountFilter;
  onDirtyChange: (dirty: boolean) => void;
  discardRef: { current: (() => void) | null };
}) {
  const day = useQuery(journalDayQuery(date, account));
  const save = useSaveJournalNote();
  const clock = useTraderTime();
  const [text, setText] = useState<string | null>(null);
  // The saved version the words grew from (null: the day had no note); undefined until the day has loaded.
  const [base, setBase] = useState<string | null | undefined>(undefined);
  const [savedElsewhere, setSavedElsewhere] = useState(false);
  const saved = day.data?.note?.content ?? '';
  const savedVersion = day.data ? (day.data.note?.updated_at ?? null) : undefined;
  const value = text ?? saved;
  const dirty = text !== null && text !== saved;
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);
  useEffect(() => {
    if (base === undefined && savedVersion !== undefined) setBase(savedVersion);
  }, [base, savedVersion]);

  // The day's words are kept in this browser until saved.
  const draft = useDraft<string>({
    editor: 'journal',
    recordId: day.data ? date : null,
    value,
    dirty,
    base: base ?? null,
    saved: { value: saved, version: savedVersion ?? null },
    isValue: isText,
    same: sameText,
    restore: (kept, keptBase) => {
      setText(kept === saved ? null : kept);
      setBase(keptBase);
    },
  });
  discardRef.current = draft.forget;

  const doSave = (over: string | null | undefined = base) =>
    save.mutate(
      { date, content: value, base: over },
      {
        onSuccess: (result) => {
          setText(null);
          setBase(result.note.updated_at);
          setSavedElsewhere(false);
          draft.markSaved(value);
          notifications.show({ color: 'teal', message: 'Daily note saved' });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 409) setSavedElsewhere(true);
          else
            notifications.show({
              color: 'red',
              title: 'Failed to save note',
              message: isSignedOutError(error) ? SIGNED_OUT_WORDS.notes : 'Failed to save note',
            });
        },
      },
    );

  const loadSaved = async () => {
    draft.forget();
    setSavedElsewhere(false);
    const fresh = await day.refetch();
    setText(null);
    setBase(fresh.data?.note?.updated_at ?? null);
  };

  return (
    <Card withBorder radius="md" padding="md" data-testid="journal-editor">
      <Stack gap="sm">
        <TextInput label="Date" value={format(asDate(date), 'EEEE, MMMM d, yyyy')} readOnly variant="filled" data-testid="journal-date" />
        {day.isPending ? (
          <Loader size="sm" role="status" aria-label="Loading the day" />
        ) : day.isError ? (
          <Text size="sm" c="var(--mantine-color-error)">
            {day.error.message}
          </Text>
        ) : (
          <>
            <Group gap="md" wrap="wrap" data-testid="journal-day-summary">
              <Text size="sm">
                Day P&L: <PnlValue value={day.data.pnl} span size="sm" />
              </Text>
              {day.data.trades.length > 0 && <ShareButton kind="day" target={date} />}
              {day.data.trades.length === 0 && (
                <Text size="sm" c="dimmed">
                  No trades on this day.
                </Text>
              )}
            </Group>
            {day.data.trades.length > 0 && <DayTrades date={date} trades={day.data.trades} withAccount={account === 'all'} />}
            {!savedElsewhere && <DraftNotice draft={draft} what="day's journal" />}
            {savedElsewhere && (
              <SavedElsewhereNotice
                what="day's journal"
                busy={save.isPending}
                onOverwrite={() => doSave(day.data.note?.updated_at ?? null)}
                onLoadSaved={() => void loadSaved()}
              />
            )}
            <Textarea
              label="Journal"
              placeholder="How did the day go? What did you see, feel and learn?"
              value={value}
              onChange={(e) => setText(e.currentTarget.value)}
              autosize
              minRows={14}
              maxRows={40}
              maxLength={NOTE_CONTENT_MAX}
              data-testid="journal-text"
            />
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                {day.data.note ? `Saved ${clock.format(day.data.note.updated_at, 'PPpp')}` : 'Not written yet'}
              </Text>
              <Button onClick={() => doSave()} loading={save.isPending} disabled={!dirty && day.data.note !== null} data-testid="journal-save">
                Save
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Card>
  );
}

/** Daily Journal. */
export function JournalPage() {
  const [filter, setFilter] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  const [pending, setPending] = useState<string | null>(null);
  const discardDraft = useRef<(() => void) | null>(null);
  // The account as the Trade Log picks it: the default account first, then the trader's pick for the session.
  const { data: accounts, isError: accountsFailed } = useAccounts();
  const [chosenAccount, setAccount] = useAccountChoice('journal', accountsFailed ? [] : accounts);
  const account = chosenAccount ?? 'all';
  const days = useQuery({ ...journalDaysQuery(filter ?? '', account), enabled: chosenAccount !== null });
  const thisYear = useTraderTime().today(new Date()).slice(0, 4);
  const list = days.data?.days ?? [];
  const selected = selectJournalDate(list, chosen);

  // 'Failed to load daily journal'.
  const reported = useRef(false);
  useEffect(() => {
    if (days.isError && !reported.current) notifications.show({ color: 'red', message: 'Failed to load daily journal' });
    reported.current = days.isError;
  }, [days.isError]);
  useEffect(() => {
    if (accountsFailed) toastError('Failed to load trading accounts');
  }, [accountsFailed]);

  const choose = (date: string) => {
    if (date === selected) return;
    if (dirty) setPending(date);
    else setChosen(date);
  };

  return (
    <>
      <PageHeader title="Daily Journal" />
      <div className={classes.layout}>
        <Card withBorder radius="md" padding="sm" data-testid="journal-days">
          <Stack gap="sm">
            <Title order={2} size="h5">
              Trading days
            </Title>
            <AccountSelector value={account} onChange={setAccount} label="Account" w="100%" />
            <DatePickerInput
              label="Filter by date"
              placeholder="All days"
              // The placeholder is real text on this button-like field: it needs AA contrast (the theme's dimmed).
              styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
              value={filter}
              onChange={(value) => {
                const day = value && isCalendarDay(value) ? value : null;
                setFilter(day);
                if (day) choose(day);
              }}
              valueFormat="MMM D, YYYY"
              leftSection={<IconCalendar size={16} aria-hidden="true" />}
              clearable
              clearButtonProps={{ 'aria-label': 'Clear date filter' }}
              // The calendar opens on the month of the day being read.
              defaultDate={selected ?? undefined}
              previousLabel="Previous month"
              nextLabel="Next month"
              popoverProps={{ withinPortal: true }}
              data-testid="journal-filter"
            />
            <ScrollArea.Autosize mah={{ base: 320, sm: 'calc(100dvh - 300px)' }} type="auto" scrollbars="y" offsetScrollbars="y">
              {days.isPending ? (
                <Loader size="sm" m="sm" role="status" aria-label="Loading trading days" />
              ) : list.length === 0 ? (
                <Text size="sm" c="dimmed" p="xs" data-testid="journal-empty">
                  No trading days yet. Pick a date above to write about it.
                </Text>
              ) : (
                <Stack gap={2}>
                  {list.map((day, i) => {
                    const year = day.date.slice(0, 4);
                    // Days read 'EEE MMM d': the days of another year than this one sit under it.
                    const yearStarts = year !== thisYear && year !== list[i - 1]?.date.slice(0, 4);
                    return (
                      <Fragment key={day.date}>
                        {yearStarts && (
                          <Text size="xs" fw={700} c="dimmed" px={10} pt={6} data-testid="journal-year">
                            {year}
                          </Text>
                        )}
                        <DayRow day={day} selected={day.date === selected} onSelect={() => choose(day.date)} />
                      </Fragment>
                    );
                  })}
                </Stack>
              )}
            </ScrollArea.Autosize>
          </Stack>
        </Card>
        {selected ? (
          <DayEditor key={selected} date={selected} account={account} onDirtyChange={setDirty} discardRef={discardDraft} />
        ) : (
          !days.isPending && (
            <Text c="dimmed" p="md">
              Choose a day to write its journal.
            </Text>
          )
        )}
      </div>
      <ConfirmDialog
        opened={pending !== null}
        title="Discard unsaved changes?"
        confirmLabel="Discard"
        danger
        onCancel={() => setPending(null)}
        onConfirm={() => {
          // Discarded on purpose: no draft of them is kept either.
          discardDraft.current?.();
          setChosen(pending);
          setPending(null);
          setDirty(false);
        }}
      >
        This day's journal has changes that are not saved. Leave it without saving them?
      </ConfirmDialog>
    </>
  );
}
