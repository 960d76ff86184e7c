import '@mantine/dates/styles.css';
import { Button, Divider, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput, Textarea, Input } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DatePickerInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { playbooksQuery } from '../playbooks/api';
import { useEffect, useState, type FormEvent } from 'react';
import { isCalendarDay } from '../../../domain/dates';
import { centsToDecimalString, formatUsd, toCents } from '../../../domain/money';
import {
  changeFormDate,
  computeFormGrossCents,
  createEditTradeForm,
  createExecutionForm,
  EMPTY_EXECUTION_FORM,
  getClockDay,
  isClockTime,
  toExecutionInput,
  toExecutionTimes,
  zoneNameOfEntry,
  type ExecutionFormValues,
  createNewTradeForm,
  deriveFormResult,
  editTradeForm,
  formatMoneyInput,
  isMoneyTyping,
  parseCommissionInput,
  parseMoneyInput,
  TRADE_RESULTS,
  tradeFormOutcome,
  tradeTypeChoices,
  type TradeFormValues,
  type TradeResult,
} from '../../../domain/trades';
import { DraftNotice } from '../../components/draft-notice';
import { PNL_NEGATIVE, PNL_POSITIVE } from '../../components/pnl-value';
import { ApiError } from '../../lib/api';
import { riskDefaultsQuery, type Trade, type TradingAccount } from '../../shared/api';
import { useTraderTime } from '../../shared/trader-clock';
import { toRiskDefault } from './risk-format';
import { TradePlanFields } from './trade-plan-fields';
import { useDraft } from '../../shared/use-draft';
import { useCreateTrade, useUpdateTrade } from './api';
import { OptionManager } from './option-manager';
import { TagsField } from './tags-field';
import { isSignedOutError, SIGNED_OUT_WORDS } from '../../lib/session-expiry';
import { describeError, toastError, toastSuccess } from './toast';
import { useToday, useTradeOptions } from './use-trade-options';

const isText = (value: unknown): value is string => typeof value === 'string';
const sameText = (a: string, b: string) => a === b;

/** 'All Trades' in the Account field saves the trade without an account (it then shows as Unassigned). */
const NO_ACCOUNT = 'none';

// Shades whose white label reads at AA contrast (4.5:1 and more).
const RESULT_COLOR = { Win: 'teal.9', Loss: 'red.9', BE: 'gray.7' } as const;
const TONE = (cents: number) => (cents > 0 ? PNL_POSITIVE : cents < 0 ? PNL_NEGATIVE : 'var(--mantine-color-dimmed)');

type TradeFormModalProps =
  | {
      mode: 'add';
      opened: boolean;
      onClose: () => void;
      accounts: readonly TradingAccount[];
      /** The account preselected in the Account field (the one being viewed, else the default). */
      initialAccountId: string | null;
    }
  | { mode: 'edit'; opened: boolean; onClose: () => void; trade: Trade | null };

/**
 * Add New Trade and Edit Trade (spec part 2 "Add dialog fields"). The pnl field is before commission; the result and
 * pnl couplings of part 2 §4 apply as the trader types (domain/trades/trade-form.ts), and the saved result is derived
 * from net pnl.
 */
export function TradeFormModal(props: TradeFormModalProps) {
  const { opened, onClose, mode } = props;
  const today = useToday();
  const options = useTradeOptions();
  const create = useCreateTrade();
  const update = useUpdateTrade();
  const [values, setValues] = useState<TradeFormValues>(() => createNewTradeForm(today));
  const [pnlText, setPnlText] = useState('0');
  const [commissionText, setCommissionText] = useState('0');
  const [accountId, setAccountId] = useState<string>(NO_ACCOUNT);
  const [accountTouched, setAccountTouched] = useState(false);
  // Issue 27: a new trade may take a playbook here; its rules are ticked on the trade's page.
  const [playbookId, setPlaybookId] = useState<string | null>(null);
  const { data: playbooks } = useQuery(playbooksQuery);
  // Issue 27: the execution and the plan; the P&L follows the prices of a known futures contract until typed over.
  const [execution, setExecution] = useState<ExecutionFormValues>(EMPTY_EXECUTION_FORM);
  const [pnlTyped, setPnlTyped] = useState(false);
  const [timesTouched, setTimesTouched] = useState(false);
  const clock = useTraderTime();
  const riskDefaults = useQuery({ ...riskDefaultsQuery, enabled: opened });
  // After a submit with a required field empty, the field itself says so (not only the toast).
  const [tried, setTried] = useState(false);
  const editTrade = props.mode === 'edit' ? props.trade : null;
  const initialAccountId = props.mode === 'add' ? props.initialAccountId : null;

  useEffect(() => {
    if (!opened) return;
    const initial = editTrade
      ? createEditTradeForm({
          tradeDay: editTrade.date,
          symbol: editTrade.symbol,
          period: editTrade.period,
          tradeType: editTrade.trade_type,
          status: editTrade.status,
          pnlCents: toCents(editTrade.pnl),
          commissionCents: toCents(editTrade.commission),
          link: editTrade.link,
          notes: editTrade.notes,
          tags: editTrade.tags,
        })
      : createNewTradeForm(today);
    setValues(initial);
    setExecution(editTrade ? createExecutionForm(editTrade, clock.timeZone) : EMPTY_EXECUTION_FORM);
    setPnlTyped(false);
    setTimesTouched(false);
    setPnlText(formatMoneyInput(initial.pnlCents));
    setCommissionText(formatMoneyInput(initial.commissionCents));
    setTried(false);
    setAccountId(initialAccountId ?? NO_ACCOUNT);
    setAccountTouched(false);
    // Reset only when the dialog opens (or switches trade), not when today's date or the options refresh.
  }, [opened, editTrade?.id]);

  // Opened before the accounts arrived (from the dashboard, at once): the default account once it is known, unless
  // the trader chose already (issue 24: the default account follows 'Set as default account' everywhere).
  useEffect(() => {
    if (opened && !accountTouched && initialAccountId) setAccountId(initialAccountId);
  }, [opened, accountTouched, initialAccountId]);

  // Issue 24, point 4: the trade's notes being written are kept in this browser until saved (the dialog closed by
  // a click outside, a reload, an ended session), and come back when the dialog opens on the same trade again.
  const savedNotes = editTrade?.notes ?? '';
  const notesDraft = useDraft<string>({
    editor: 'trade-notes',
    recordId: opened ? (editTrade?.id ?? 'new') : null,
    value: values.notes,
    dirty: values.notes !== savedNotes,
    base: editTrade?.updated_at ?? null,
    saved: { value: savedNotes, version: editTrade?.updated_at ?? null },
    isValue: isText,
    same: sameText,
    restore: (notes) => setValues((v) => ({ ...v, notes })),
  });

  const changeExecution = (patch: Partial<ExecutionFormValues>) => {
    const next = { ...execution, ...patch };
    setExecution(next);
    if ('entryTime' in patch || 'exitTime' in patch) setTimesTouched(true);
    // A known futures contract's prices and size make its P&L, unless the trader typed their own.
    const gross = computeFormGrossCents(values.instrument, next);
    if (gross !== null && !pnlTyped) setGross(gross);
  };

  const setGross = (gross: number) => {
    const result = gross > 0 ? 'Win' : gross < 0 ? 'Loss' : 'BE';
    setValues((v) => ({ ...v, pnlCents: gross, result }));
    setPnlText(formatMoneyInput(gross));
  };

  const enterPnl = (text: string) => {
    if (!isMoneyTyping(text)) return;
    setPnlTyped(true);
    const typed = parseMoneyInput(text);
    const next = editTradeForm(values, { field: 'pnl', pnlCents: typed });
    setValues(next);
    // A coupling changed the amount (Loss makes it negative, BE keeps 0): the field shows what will be saved.
    setPnlText(next.pnlCents === typed ? text : formatMoneyInput(next.pnlCents));
  };

  const chooseResult = (result: TradeResult) => {
    const next = editTradeForm(values, { field: 'result', result });
    setValues(next);
    if (next.pnlCents !== values.pnlCents) setPnlText(formatMoneyInput(next.pnlCents));
  };

  // Issue 24: the Result shows the result that will be saved, and the line under the amounts the net that will be.
  const outcome = tradeFormOutcome(values);
  const netCents = outcome.netCents;
  const pricedGross = computeFormGrossCents(values.instrument, execution);
  const savedResult = deriveFormResult(values);
  const busy = create.isPending || update.isPending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Part 2 §5: date, session and result are required.
    if (!isCalendarDay(values.date) || values.session.trim() === '' || !TRADE_RESULTS.includes(values.result)) {
      setTried(true);
      toastError('Please fill in all required fields.');
      return;
    }
    if (!isClockTime(execution.entryTime) || !isClockTime(execution.exitTime)) {
      toastError(mode === 'edit' ? 'Failed to update trade' : 'Failed to add trade', 'Times are written as 09:35.');
      return;
    }
    // Times go on the trader's clock, on the trade's date (an edited overnight entry keeps the evening it was on). An
    // edit sends them only when they or the date changed: stored times keep their seconds.
    const dateChanged = editTrade !== null && editTrade.date !== values.date;
    const entryDay = editTrade?.entry_time && !dateChanged ? getClockDay(editTrade.entry_time, clock.timeZone) : values.date;
    const times = editTrade && !timesTouched && !dateChanged ? {} : toExecutionTimes(execution, entryDay, clock.timeZone);
    const common = {
      date: values.date,
      symbol: values.instrument.trim(),
      period: values.session,
      trade_type: values.type,
      status: savedResult,
      pnl: centsToDecimalString(netCents),
      link: values.link.trim(),
      notes: values.notes,
      tags: values.tags,
      ...toExecutionInput(execution),
      ...times,
    };
    try {
      if (mode === 'edit') {
        if (!editTrade) {
          toastError('No trade selected for editing');
          return;
        }
        await update.mutateAsync({ id: editTrade.id, body: common });
        notesDraft.markSaved(values.notes);
        toastSuccess('Trade updated successfully');
      } else {
        await create.mutateAsync({
          ...common,
          account_id: accountId === NO_ACCOUNT ? null : accountId,
          playbook_id: playbookId,
          commission: centsToDecimalString(values.commissionCents),
        });
        notesDraft.markSaved(values.notes);
        toastSuccess('Trade added successfully');
      }
      onClose();
    } catch (error) {
      if (mode === 'edit') toastError('Failed to update trade', describeError(error));
      // Part 2 §8: refused for what was typed (the server's message names the field) or for want of a session (§6's
      // words): the trade was not added, and the dialog stays for a correction. Any other failure (the server or the
      // connection) did not create it.
      else if (isSignedOutError(error) || (error instanceof ApiError && error.status === 400)) {
        toastError('Failed to add trade', describeError(error, SIGNED_OUT_WORDS.addTrade));
      } else toastError('Failed to create trade', describeError(error) ?? 'Please try again.');
    }
  };

  // A stored LONG/SHORT reads Long/Short, as everywhere else; its value stays as stored unless another is chosen.
  const typeOptions = tradeTypeChoices(options.trade_type, editTrade?.trade_type ?? '', values.type);
  const sessionOptions = withCurrent(options.session, values.session);

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={mode === 'edit' ? 'Edit Trade' : 'Add New Trade'}
      size="lg"
      centered
      data-testid={mode === 'edit' ? 'edit-trade-modal' : 'add-trade-modal'}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {props.mode === 'add' && (
            <Select
              label="Account"
              data={[
                { value: NO_ACCOUNT, label: 'All Trades' },
                ...props.accounts.map((a) => ({ value: a.id, label: a.is_default ? `${a.name} ★` : a.name })),
              ]}
              value={accountId}
              onChange={(v) => {
                setAccountTouched(true);
                setAccountId(v ?? NO_ACCOUNT);
              }}
              allowDeselect={false}
              data-autofocus
              description={accountId === NO_ACCOUNT ? 'Saved without an account: it shows under Unassigned Trades.' : undefined}
              data-testid="trade-account"
            />
          )}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <DatePickerInput
              label="Date"
              value={isCalendarDay(values.date) ? values.date : null}
              onChange={(day) => setValues((v) => (day && isCalendarDay(day) ? changeFormDate(v, day) : { ...v, date: '' }))}
              valueFormat="MMM D, YYYY"
              leftSection={<IconCalendar size={16} aria-hidden="true" />}
              clearable
              withAsterisk
              error={tried && !isCalendarDay(values.date) ? 'Date is required' : undefined}
              popoverProps={{ withinPortal: true }}
              // The dialog opens on its first field: the account when adding, the date when editing.
              data-autofocus={props.mode === 'add' ? undefined : true}
              data-testid="trade-date"
            />
            <TextInput label="Day" value={isCalendarDay(values.date) ? values.day : ''} readOnly variant="filled" data-testid="trade-day" />
            <TextInput
              label="Instrument"
              value={values.instrument}
              onChange={(e) => {
                const instrument = e.currentTarget.value;
                setValues((v) => ({ ...v, instrument }));
                const gross = computeFormGrossCents(instrument, execution);
                if (gross !== null && !pnlTyped) setGross(gross);
              }}
              maxLength={50}
              data-testid="trade-instrument"
            />
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <Select
                label="Type"
                data={typeOptions}
                value={values.type || null}
                onChange={(type) => setValues((v) => ({ ...v, type: type ?? '' }))}
                searchable
                clearable
                clearButtonProps={{ 'aria-label': 'Clear type' }}
                style={{ flex: 1 }}
                data-testid="trade-type"
              />
              <OptionManager kind="trade_type" options={options.trade_type} />
            </Group>
            {props.mode === 'add' && Boolean(playbooks?.length) && (
              <Select
                label="Playbook"
                placeholder="None"
                data={(playbooks ?? []).map((p) => ({ value: p.id, label: p.name }))}
                value={playbookId}
                onChange={setPlaybookId}
                searchable
                clearable
                clearButtonProps={{ 'aria-label': 'Clear playbook' }}
                data-testid="trade-playbook-choice"
              />
            )}
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <Select
                label="Session"
                data={sessionOptions}
                value={values.session || null}
                onChange={(session) => setValues((v) => ({ ...v, session: session ?? '' }))}
                searchable
                clearable
                clearButtonProps={{ 'aria-label': 'Clear session' }}
                withAsterisk
                error={tried && values.session.trim() === '' ? 'Session is required' : undefined}
                style={{ flex: 1 }}
                data-testid="trade-session"
              />
              <OptionManager kind="session" options={options.session} />
            </Group>
            <Input.Wrapper label="Result" id="trade-result-label" withAsterisk>
              {/* Buttons rather than a segmented control: choosing the result already shown (a Loss that fees made
                  of a BE) must still apply its coupling, and a radio that is already checked sends no change. */}
              <Group gap={0} grow wrap="nowrap" role="group" aria-labelledby="trade-result-label" data-testid="trade-result-input" data-result={outcome.result}>
                {TRADE_RESULTS.map((result, i) => (
                  <Button
                    key={result}
                    variant={outcome.result === result ? 'filled' : 'default'}
                    color={RESULT_COLOR[result]}
                    aria-pressed={outcome.result === result}
                    onClick={() => chooseResult(result)}
                    style={{
                      borderTopLeftRadius: i === 0 ? undefined : 0,
                      borderBottomLeftRadius: i === 0 ? undefined : 0,
                      borderTopRightRadius: i === TRADE_RESULTS.length - 1 ? undefined : 0,
                      borderBottomRightRadius: i === TRADE_RESULTS.length - 1 ? undefined : 0,
                    }}
                  >
                    {result}
                  </Button>
                ))}
              </Group>
            </Input.Wrapper>
            <TextInput
              label="PnL (before commission)"
              value={pnlText}
              onChange={(e) => enterPnl(e.currentTarget.value)}
              inputMode="decimal"
              leftSection="$"
              description={pricedGross !== null && pricedGross !== values.pnlCents ? `From the prices: ${formatUsd(pricedGross)}` : undefined}
              // The amount's colour is its sign, unless the commission turns it (then only the line below has one).
              styles={{ input: { color: Math.sign(values.pnlCents) === Math.sign(netCents) ? TONE(netCents) : undefined, fontWeight: 600 } }}
              aria-describedby="trade-net-preview"
              data-testid="trade-pnl-input"
            />
            {mode === 'add' && (
              <TextInput
                label="Commission"
                value={commissionText}
                onChange={(e) => {
                  const text = e.currentTarget.value;
                  if (!isMoneyTyping(text)) return;
                  setCommissionText(text);
                  setValues((v) => editTradeForm(v, { field: 'commission', commissionCents: parseCommissionInput(text) }));
                }}
                // Part 2 §5: commission is stored as an absolute value.
                onBlur={() => setCommissionText(formatMoneyInput(values.commissionCents))}
                inputMode="decimal"
                leftSection="$"
                data-testid="trade-commission"
              />
            )}
          </SimpleGrid>
          <Text size="sm" c="dimmed" id="trade-net-preview" data-testid="trade-net-preview" aria-live="polite">
            Net PnL{' '}
            <Text span fw={700} c={TONE(netCents)}>
              {formatUsd(netCents)}
            </Text>
            {values.commissionCents !== 0 ? ` after ${formatUsd(values.commissionCents)} commission` : ''}
            {outcome.blank ? ` · a ${formatUsd(0)} trade is saved as ${savedResult}` : ` · saved as ${savedResult}`}
          </Text>
          <Divider label="Execution and plan (optional)" labelPosition="left" />
          <TradePlanFields
            values={execution}
            onChange={changeExecution}
            timeZoneName={zoneNameOfEntry(values.date, execution.entryTime, clock.timeZone) ?? clock.zoneName(new Date())}
            preview={{
              symbol: values.instrument.trim() || 'Unknown',
              accountId: props.mode === 'add' ? (accountId === NO_ACCOUNT ? null : accountId) : (editTrade?.account_id ?? null),
              netCents,
              defaults: (riskDefaults.data ?? []).map(toRiskDefault),
            }}
          />
          <TextInput
            label="Link"
            value={values.link}
            onChange={(e) => {
              const link = e.currentTarget.value;
              setValues((v) => ({ ...v, link }));
            }}
            placeholder="https://"
            maxLength={2000}
            data-testid="trade-link"
          />
          <TagsField value={values.tags} onChange={(tags) => setValues((v) => ({ ...v, tags }))} suggestions={options.tag} />
          <Textarea
            label="Notes"
            value={values.notes}
            onChange={(e) => {
              const notes = e.currentTarget.value;
              setValues((v) => ({ ...v, notes }));
            }}
            autosize
            minRows={3}
            maxRows={10}
            maxLength={20000}
            data-testid="trade-notes"
          />
          <DraftNotice draft={notesDraft} what="trade's notes" compact />
          <Group justify="flex-end" mt="xs">
            <Button
              variant="default"
              onClick={() => {
                // Cancel is a choice to drop the changes: no draft of the notes is kept either.
                notesDraft.forget();
                onClose();
              }}
              disabled={busy}
            >
              Cancel
            </Button>
            <Button type="submit" loading={busy} data-testid="trade-submit">
              {mode === 'edit' ? 'Save Changes' : 'Add Trade'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A trade's own type or session stays choosable even when it is no longer among the trader's options. */
function withCurrent(options: readonly string[], current: string): string[] {
  return current && !options.includes(current) ? [...options, current] : [...options];
}
