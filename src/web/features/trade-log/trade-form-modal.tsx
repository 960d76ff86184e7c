import '@mantine/dates/styles.css';
import { Button, Divider, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput, Textarea, Input } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DatePickerInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { playbooksQuery } from '../playbooks/api';
import { useEffect, useReducer, type FormEvent } from 'react';
import { isCalendarDay } from '../../../domain/dates';
import { formatUsd } from '../../../domain/money';
import { TRADE_RESULTS, tradeTypeChoices } from '../../../domain/trades';
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
import {
  entryZoneName,
  findTradeFormProblem,
  initTradeForm,
  NO_ACCOUNT,
  previewTradeForm,
  reduceTradeForm,
  toNewTradeBody,
  toTradeBody,
} from './trade-form-state';
import { useToday, useTradeOptions } from './use-trade-options';

const isText = (value: unknown): value is string => typeof value === 'string';
const sameText = (a: string, b: string) => a === b;

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
 * Add New Trade and Edit Trade. The pnl field is before commission; the result and pnl couplings apply as the trader
 * types (domain/trades/trade-form.ts, through the dialog's reducer in ./trade-form-state.ts), and the saved result is
 * derived from net pnl.
 */
export function TradeFormModal(props: TradeFormModalProps) {
  const { opened, onClose, mode } = props;
  const today = useToday();
  const options = useTradeOptions();
  const create = useCreateTrade();
  const update = useUpdateTrade();
  const clock = useTraderTime();
  const editTrade = props.mode === 'edit' ? props.trade : null;
  const initialAccountId = props.mode === 'add' ? props.initialAccountId : null;
  const [state, dispatch] = useReducer(reduceTradeForm, null, () =>
    initTradeForm({ trade: editTrade, today, timeZone: clock.timeZone, accountId: initialAccountId }),
  );
  const { values, execution, accountId } = state;
  const { data: playbooks } = useQuery(playbooksQuery);
  const riskDefaults = useQuery({ ...riskDefaultsQuery, enabled: opened });

  useEffect(() => {
    if (!opened) return;
    dispatch({ type: 'reset', state: initTradeForm({ trade: editTrade, today, timeZone: clock.timeZone, accountId: initialAccountId }) });
    // Reset only when the dialog opens (or switches trade), not when today's date or the options refresh.
  }, [opened, editTrade?.id]);

  // Opened before the accounts arrived (from the dashboard, at once): the default account once it is known, unless
  // the trader chose already (the default account follows 'Set as default account' everywhere).
  useEffect(() => {
    if (opened && initialAccountId) dispatch({ type: 'default-account', accountId: initialAccountId });
  }, [opened, initialAccountId]);

  // The trade's notes being written are kept in this browser until saved (the dialog closed by a click outside, a
  // reload, an ended session), and come back when the dialog opens on the same trade again.
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
    restore: (notes) => dispatch({ type: 'change', patch: { notes } }),
  });

  // The Result shows the result that will be saved, and the line under the amounts the net that will be.
  const { outcome, netCents, pricedGross, savedResult } = previewTradeForm(state);
  const busy = create.isPending || update.isPending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = findTradeFormProblem(state);
    if (problem === 'required') {
      dispatch({ type: 'refuse-submit' });
      toastError('Please fill in all required fields.');
      return;
    }
    if (problem === 'times') {
      toastError(mode === 'edit' ? 'Failed to update trade' : 'Failed to add trade', 'Times are written as 09:35.');
      return;
    }
    try {
      if (mode === 'edit') {
        if (!editTrade) {
          toastError('No trade selected for editing');
          return;
        }
        await update.mutateAsync({ id: editTrade.id, body: toTradeBody(state, editTrade, clock.timeZone) });
        notesDraft.markSaved(values.notes);
        toastSuccess('Trade updated successfully');
      } else {
        await create.mutateAsync(toNewTradeBody(state, clock.timeZone));
        notesDraft.markSaved(values.notes);
        toastSuccess('Trade added successfully');
      }
      onClose();
    } catch (error) {
      if (mode === 'edit') toastError('Failed to update trade', describeError(error));
      // Refused for what was typed (the server's message names the field) or for want of a session: the trade was not
      // added, and the dialog stays for a correction. Any other failure (the server or the connection) did not create
      // it.
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
              onChange={(v) => dispatch({ type: 'choose-account', accountId: v })}
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
              onChange={(day) => dispatch({ type: 'change-date', day })}
              valueFormat="MMM D, YYYY"
              leftSection={<IconCalendar size={16} aria-hidden="true" />}
              clearable
              withAsterisk
              error={state.tried && !isCalendarDay(values.date) ? 'Date is required' : undefined}
              popoverProps={{ withinPortal: true }}
              // The dialog opens on its first field: the account when adding, the date when editing.
              data-autofocus={props.mode === 'add' ? undefined : true}
              data-testid="trade-date"
            />
            <TextInput label="Day" value={isCalendarDay(values.date) ? values.day : ''} readOnly variant="filled" data-testid="trade-day" />
            <TextInput
              label="Instrument"
              value={values.instrument}
              onChange={(e) => dispatch({ type: 'change-instrument', instrument: e.currentTarget.value })}
              maxLength={50}
              data-testid="trade-instrument"
            />
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <Select
                label="Type"
                data={typeOptions}
                value={values.type || null}
                onChange={(type) => dispatch({ type: 'change', patch: { type: type ?? '' } })}
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
                value={state.playbookId}
                onChange={(playbookId) => dispatch({ type: 'choose-playbook', playbookId })}
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
                onChange={(session) => dispatch({ type: 'change', patch: { session: session ?? '' } })}
                searchable
                clearable
                clearButtonProps={{ 'aria-label': 'Clear session' }}
                withAsterisk
                error={state.tried && values.session.trim() === '' ? 'Session is required' : undefined}
                style={{ flex: 1 }}
                data-testid="trade-session"
              />
              <OptionManager kind="session" options={options.session} />
            </Group>
            <Input.Wrapper label="Result" id="trade-result-label" withAsterisk>
              {/* Buttons rather than a segmented control: choosing the result already shown (a Loss that fees made
                  of a BE) must still apply its coupling, and a radio that is already checked sends no change. */}
              <Group
                gap={0}
                grow
                wrap="nowrap"
                role="group"
                aria-labelledby="trade-result-label"
                data-testid="trade-result-input"
                data-result={outcome.result}
              >
                {TRADE_RESULTS.map((result, i) => (
                  <Button
                    key={result}
                    variant={outcome.result === result ? 'filled' : 'default'}
                    color={RESULT_COLOR[result]}
                    aria-pressed={outcome.result === result}
                    onClick={() => dispatch({ type: 'choose-result', result })}
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
              value={state.pnlText}
              onChange={(e) => dispatch({ type: 'type-pnl', text: e.currentTarget.value })}
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
                value={state.commissionText}
                onChange={(e) => dispatch({ type: 'type-commission', text: e.currentTarget.value })}
                onBlur={() => dispatch({ type: 'leave-commission' })}
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
            onChange={(patch) => dispatch({ type: 'change-execution', patch })}
            timeZoneName={entryZoneName(state, editTrade, clock.timeZone)}
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
            onChange={(e) => dispatch({ type: 'change', patch: { link: e.currentTarget.value } })}
            placeholder="https://"
            maxLength={2000}
            data-testid="trade-link"
          />
          <TagsField value={values.tags} onChange={(tags) => dispatch({ type: 'change', patch: { tags } })} suggestions={options.tag} />
          <Textarea
            label="Notes"
            value={values.notes}
            onChange={(e) => dispatch({ type: 'change', patch: { notes: e.currentTarget.value } })}
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
