import '@mantine/dates/styles.css';
import { ActionIcon, Button, Group, Select, Text, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconX } from '@tabler/icons-react';
import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { isCalendarDay } from '../../../domain/dates';
import { centsToDecimalString, formatUsd, toCents } from '../../../domain/money';
import {
  changeFormDate,
  createEditTradeForm,
  deriveFormResult,
  editTradeForm,
  formatMoneyInput,
  isMoneyTyping,
  parseMoneyInput,
  parseTags,
  toNetPnlCents,
  TRADE_RESULTS,
  tradeFormOutcome,
  tradeTypeChoices,
  type TradeResult,
} from '../../../domain/trades';
import { PNL_NEGATIVE, PNL_POSITIVE } from '../../components/pnl-value';
import { ApiError } from '../../lib/api';
import type { Trade } from '../../shared/api';
import { useUpdateTrade } from './api';
import type { TradeCellSpec, TradeRowActions } from './trade-columns';
import { describeError, toastError, toastSuccess } from './toast';
import { useTradeOptions } from './use-trade-options';
import classes from './trade-log.module.css';

interface InlineEditRowProps {
  trade: Trade;
  cells: readonly TradeCellSpec[];
  timeZone: string;
  today: string;
  onDone: () => void;
  rowRef?: (node: HTMLTableRowElement | null) => void;
  index?: number;
  /** The row's offset in the maximized table, in px (rows are placed absolutely there). */
  start?: number;
}

const nothing = () => undefined;
const NO_ACTIONS: TradeRowActions = { onToggleSelect: nothing, onEdit: nothing, onDelete: nothing, onEditTags: nothing };
const RESULT_COLOR = { Win: PNL_POSITIVE, Loss: PNL_NEGATIVE, BE: 'var(--mantine-color-dimmed)' } as const;

/**
 * Inline editing in the maximized table, with Done. Same rule as the Edit Trade dialog
 * (domain editTradeForm): pnl before commission, the result couplings as the trader types, the stored commission
 * kept. The Result shows the result that will be saved and the PnL cell the net that will be stored, as it is typed
 * (a typed 150 on a Loss row was saved as -$154.28 with nothing on screen saying so).
 */
export function InlineEditRow({ trade, cells, timeZone, today, onDone, rowRef, index, start = 0 }: InlineEditRowProps) {
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
  const [pnlText, setPnlText] = useState(() => formatMoneyInput(form.pnlCents));
  const [tagsText, setTagsText] = useState(trade.tags.join(', '));
  // After Done with a required field empty, the field itself is marked (as in the dialog), not only the toast.
  const [tried, setTried] = useState(false);
  const dateMissing = tried && !isCalendarDay(form.date);
  const sessionMissing = tried && form.session.trim() === '';
  const outcome = tradeFormOutcome(form);

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
      // The trade is gone (deleted in another tab or device): there is nothing left to save it to.
      if (error instanceof ApiError && error.status === 404) {
        toastError('No trade data to save', 'This trade was deleted elsewhere.');
        onDone();
      } else {
        toastError('Failed to save trade', describeError(error));
      }
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

  const chooseResult = (result: TradeResult) => {
    const next = editTradeForm(form, { field: 'result', result });
    setForm(next);
    if (next.pnlCents !== form.pnlCents) setPnlText(formatMoneyInput(next.pnlCents));
  };

  const withCurrent = (list: readonly string[], current: string) => (current && !list.includes(current) ? [...list, current] : [...list]);

  const editors: Record<string, () => ReactNode> = {
    select: () => null,
    date: () => (
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
    ),
    day: () => <Text size="sm">{isCalendarDay(form.date) ? form.day : ''}</Text>,
    instrument: () => (
      <TextInput
        size="xs"
        aria-label="Instrument"
        value={form.instrument}
        maxLength={50}
        onChange={(e) => {
          const instrument = e.currentTarget.value;
          setForm((f) => ({ ...f, instrument }));
        }}
      />
    ),
    session: () => (
      <Select
        size="xs"
        aria-label="Session"
        data={withCurrent(options.session, form.session)}
        value={form.session || null}
        onChange={(session) => setForm((f) => ({ ...f, session: session ?? '' }))}
        error={sessionMissing}
        aria-invalid={sessionMissing || undefined}
        title={sessionMissing ? 'Session is required' : undefined}
        data-testid="inline-session"
      />
    ),
    type: () => (
      <Select
        size="xs"
        aria-label="Type"
        data={tradeTypeChoices(options.trade_type, trade.trade_type, form.type)}
        value={form.type || null}
        onChange={(type) => setForm((f) => ({ ...f, type: type ?? '' }))}
      />
    ),
    result: () => (
      <Select
        size="xs"
        aria-label="Result"
        rightSection={<span />}
        rightSectionWidth={4}
        data={[...TRADE_RESULTS]}
        // The result that will be saved; choosing one (even the one shown) applies its coupling to the pnl.
        value={outcome.result}
        allowDeselect={false}
        onOptionSubmit={(value) => chooseResult(value as TradeResult)}
        styles={{ input: { color: RESULT_COLOR[outcome.result], fontWeight: 600 } }}
        data-result={outcome.result}
        data-testid="inline-result"
      />
    ),
    pnl: () => (
      <div className={classes.inlinePnl}>
        <TextInput
          size="xs"
          aria-label="PnL (before commission)"
          title="PnL (before commission)"
          inputMode="decimal"
          value={pnlText}
          data-sign={outcome.netCents < 0 ? 'negative' : outcome.netCents > 0 ? 'positive' : undefined}
          onChange={(e) => {
            const text = e.currentTarget.value;
            // As in the Add/Edit dialog: letters are refused as they are typed.
            if (!isMoneyTyping(text)) return;
            const typed = parseMoneyInput(text);
            const next = editTradeForm(form, { field: 'pnl', pnlCents: typed });
            setForm(next);
            // A coupling changed the amount (Loss makes it negative, BE keeps 0): the field shows what will be saved.
            setPnlText(next.pnlCents === typed ? text : formatMoneyInput(next.pnlCents));
          }}
          aria-describedby={`inline-net-${trade.id}`}
        />
        <span
          id={`inline-net-${trade.id}`}
          className={classes.pnl}
          data-tone={outcome.netCents > 0 ? 'positive' : outcome.netCents < 0 ? 'negative' : 'neutral'}
          data-testid="inline-net-preview"
          data-money
          title={form.commissionCents !== 0 ? `Saved after ${formatUsd(form.commissionCents)} commission` : 'Saved'}
        >
          {`Net ${formatUsd(outcome.netCents)}`}
        </span>
      </div>
    ),
    // The pnl before fees, as typed.
    gross_pnl: () => (
      <span className={classes.pnl} data-tone={form.pnlCents > 0 ? 'positive' : form.pnlCents < 0 ? 'negative' : 'neutral'} data-money>
        {formatUsd(form.pnlCents)}
      </span>
    ),
    link: () => (
      <TextInput
        size="xs"
        aria-label="Link"
        value={form.link}
        maxLength={2000}
        onChange={(e) => {
          const link = e.currentTarget.value;
          setForm((f) => ({ ...f, link }));
        }}
      />
    ),
    tags: () => (
      <TextInput
        size="xs"
        aria-label="Tags (comma separated)"
        placeholder="tag, tag"
        value={tagsText}
        onChange={(e) => setTagsText(e.currentTarget.value)}
      />
    ),
    notes: () => (
      <TextInput
        size="xs"
        aria-label="Notes"
        value={form.notes}
        maxLength={20000}
        onChange={(e) => {
          const notes = e.currentTarget.value;
          setForm((f) => ({ ...f, notes }));
        }}
      />
    ),
    actions: () => (
      <Group gap={4} wrap="nowrap">
        <Button size="compact-xs" onClick={() => void done()} loading={update.isPending} data-testid="inline-done">
          Done
        </Button>
        <ActionIcon variant="subtle" color="gray" size="sm" onClick={onDone} aria-label="Cancel editing">
          <IconX size={16} aria-hidden="true" />
        </ActionIcon>
      </Group>
    ),
  };

  // Fields the inline editor does not change (times, prices, size, fees, account) read as in the row.
  const readOnly = { timeZone, today, actions: NO_ACTIONS, isSelected: false };
  return (
    <tr
      ref={rowRef}
      className={`${classes.row} ${classes.editRow}`}
      style={{ transform: `translateY(${start}px)` }}
      data-index={index}
      onKeyDown={onKeyDown}
      data-testid="inline-edit-row"
    >
      {cells.map(({ id, meta, pinned }) => {
        const editor = editors[id];
        const className = [editor ? undefined : `${meta.text ? classes.cell : ''} ${classes.dimmed}`, pinned ? classes.actions : undefined]
          .filter(Boolean)
          .join(' ');
        return (
          <td key={id} data-col={id} className={className || undefined}>
            {editor ? editor() : meta.render(trade, readOnly)}
          </td>
        );
      })}
    </tr>
  );
}
