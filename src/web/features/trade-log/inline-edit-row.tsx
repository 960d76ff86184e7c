import '@mantine/dates/styles.css';
import { ActionIcon, Button, Group, Select, Text, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconX } from '@tabler/icons-react';
import { useState, type KeyboardEvent } from 'react';
import { isCalendarDay } from '../../../domain/dates';
import { centsToDecimalString, toCents, type Cents } from '../../../domain/money';
import {
  changeFormDate,
  createEditTradeForm,
  deriveFormResult,
  enterFormPnl,
  isMoneyTyping,
  parseMoneyInput,
  parseTags,
  selectFormResult,
  toNetPnlCents,
  TRADE_RESULTS,
  tradeTypeChoices,
  type TradeResult,
} from '../../../domain/trades';
import type { Trade } from '../../shared/api';
import { useUpdateTrade } from './api';
import { formatR } from '../../../domain/risk/format-r';
import { accountLabel } from './format';
import { describeError, toastError, toastSuccess } from './toast';
import { useTradeOptions } from './use-trade-options';
import classes from './trade-log.module.css';

const centsToInput = (cents: Cents) => (cents % 100 === 0 ? String(cents / 100) : centsToDecimalString(cents));

interface InlineEditRowProps {
  trade: Trade;
  showAccount: boolean;
  selectMode: boolean;
  onDone: () => void;
  rowRef?: (node: HTMLTableRowElement | null) => void;
  index?: number;
  /** The row's offset in the maximized table, in px (rows are placed absolutely there). */
  start?: number;
}

/**
 * Inline editing in the maximized table (part 2 "Trade table"), with Done. Same rules as the Edit Trade dialog:
 * pnl before commission, the result couplings as the trader types, the stored commission kept.
 */
export function InlineEditRow({ trade, showAccount, selectMode, onDone, rowRef, index, start = 0 }: InlineEditRowProps) {
  const options = useTradeOptions();
  const update = useUpdateTrade();
  const [form, setForm] = useState(() =>
    createEditTradeForm({
      tradeDay: trade.date,
      symbol: trade.symbol,
      period: trade.period,
      tradeType: trade.trade_type,
      status: trade.status,
      pnlCents: toCents(trade.pnl),
      commissionCents: toCents(trade.commission),
      link: trade.link,
      notes: trade.notes,
      tags: trade.tags,
    }),
  );
  const [pnlText, setPnlText] = useState(() => centsToInput(form.pnlCents));
  const [tagsText, setTagsText] = useState(trade.tags.join(', '));
  // After Done with a required field empty, the field itself is marked (as in the dialog), not only the toast.
  const [tried, setTried] = useState(false);
  const dateMissing = tried && !isCalendarDay(form.date);
  const sessionMissing = tried && form.session.trim() === '';

  const done = async () => {
    if (!isCalendarDay(form.date) || form.session.trim() === '') {
      setTried(true);
      toastError('Please fill in all required fields.');
      return;
    }
    try {
      await update.mutateAsync({
        id: trade.id,
        body: {
          date: form.date,
          symbol: form.instrument.trim(),
          period: form.session,
          trade_type: form.type,
          status: deriveFormResult(form),
          pnl: centsToDecimalString(toNetPnlCents(form.pnlCents, form.commissionCents)),
          link: form.link.trim(),
          notes: form.notes,
          tags: parseTags(tagsText),
        },
      });
      toastSuccess('Trade updated successfully');
      onDone();
    } catch (error) {
      toastError('Failed to update trade', describeError(error));
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !(event.target instanceof HTMLTextAreaElement)) {
      event.preventDefault();
      void done();
    } else if (event.key === 'Escape') {
      onDone();
    }
  };

  const withCurrent = (list: readonly string[], current: string) => (current && !list.includes(current) ? [...list, current] : [...list]);

  return (
    <tr
      ref={rowRef}
      className={`${classes.row} ${classes.editRow}`}
      style={{ transform: `translateY(${start}px)` }}
      data-index={index}
      onKeyDown={onKeyDown}
      data-testid="inline-edit-row"
    >
      {selectMode && <td data-col="select" />}
      <td data-col="date">
        <DatePickerInput
          size="xs"
          aria-label="Date"
          value={isCalendarDay(form.date) ? form.date : null}
          onChange={(day) => setForm((f) => (day && isCalendarDay(day) ? changeFormDate(f, day) : { ...f, date: '' }))}
          valueFormat="MMM D, YYYY"
          popoverProps={{ withinPortal: true }}
          w="100%"
          error={dateMissing}
          aria-invalid={dateMissing || undefined}
          title={dateMissing ? 'Date is required' : undefined}
          data-testid="inline-date"
        />
      </td>
      <td data-col="day">
        <Text size="sm">{isCalendarDay(form.date) ? form.day : ''}</Text>
      </td>
      <td data-col="instrument">
        <TextInput size="xs" aria-label="Instrument" value={form.instrument} maxLength={50} onChange={(e) => {
          const instrument = e.currentTarget.value;
          setForm((f) => ({ ...f, instrument }));
        }} />
      </td>
      <td data-col="session">
        <Select size="xs" aria-label="Session" data={withCurrent(options.session, form.session)} value={form.session || null}
          onChange={(session) => setForm((f) => ({ ...f, session: session ?? '' }))}
          error={sessionMissing} aria-invalid={sessionMissing || undefined} title={sessionMissing ? 'Session is required' : undefined}
          data-testid="inline-session" />
      </td>
      <td data-col="type">
        <Select size="xs" aria-label="Type" data={tradeTypeChoices(options.trade_type, trade.trade_type, form.type)} value={form.type || null}
          onChange={(type) => setForm((f) => ({ ...f, type: type ?? '' }))} />
      </td>
      <td data-col="side" className={`${classes.cell} ${trade.side ? '' : classes.dimmed}`}>
        {trade.side ?? '—'}
      </td>
      <td data-col="result">
        <Select
          size="xs"
          aria-label="Result"
          rightSection={<span />}
          rightSectionWidth={4}
          data={[...TRADE_RESULTS]}
          value={form.result}
          allowDeselect={false}
          onChange={(value) => {
            if (!value) return;
            const next = selectFormResult(form, value as TradeResult);
            setForm(next);
            if (next.pnlCents !== form.pnlCents) setPnlText(centsToInput(next.pnlCents));
          }}
        />
      </td>
      <td data-col="pnl">
        <TextInput
          size="xs"
          aria-label="PnL (before commission)"
          title="PnL (before commission)"
          inputMode="decimal"
          value={pnlText}
          onChange={(e) => {
            const text = e.currentTarget.value;
            // As in the Add/Edit dialog: letters are refused as they are typed.
            if (!isMoneyTyping(text)) return;
            const typed = parseMoneyInput(text);
            const next = enterFormPnl(form, typed);
            setForm(next);
            setPnlText(next.pnlCents === typed ? text : centsToInput(next.pnlCents));
          }}
        />
      </td>
      <td data-col="r" className={`${classes.cell} ${classes.dimmed}`}>
        {trade.r_multiple === null ? '—' : formatR(trade.r_multiple)}
      </td>
      {showAccount && (
        <td data-col="account" className={`${classes.cell} ${classes.dimmed}`}>
          {accountLabel(trade)}
        </td>
      )}
      <td data-col="link">
        <TextInput size="xs" aria-label="Link" value={form.link} maxLength={2000} onChange={(e) => {
          const link = e.currentTarget.value;
          setForm((f) => ({ ...f, link }));
        }} />
      </td>
      <td data-col="tags">
        <TextInput size="xs" aria-label="Tags (comma separated)" placeholder="tag, tag" value={tagsText} onChange={(e) => setTagsText(e.currentTarget.value)} />
      </td>
      <td data-col="notes">
        <TextInput size="xs" aria-label="Notes" value={form.notes} maxLength={20000} onChange={(e) => {
          const notes = e.currentTarget.value;
          setForm((f) => ({ ...f, notes }));
        }} />
      </td>
      <td className={classes.actions} data-col="actions">
        <Group gap={4} wrap="nowrap">
          <Button size="compact-xs" onClick={() => void done()} loading={update.isPending} data-testid="inline-done">
            Done
          </Button>
          <ActionIcon variant="subtle" color="gray" size="sm" onClick={onDone} aria-label="Cancel editing">
            <IconX size={16} aria-hidden="true" />
          </ActionIcon>
        </Group>
      </td>
    </tr>
  );
}
