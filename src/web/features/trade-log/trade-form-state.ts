import { isCalendarDay } from '../../../domain/dates';
import { centsToDecimalString, toCents } from '../../../domain/money';
import {
  changeFormDate,
  computeFormGrossCents,
  createEditTradeForm,
  createExecutionForm,
  createNewTradeForm,
  deriveFormResult,
  editTradeForm,
  EMPTY_EXECUTION_FORM,
  formatMoneyInput,
  getClockDay,
  isClockTime,
  isMoneyTyping,
  parseCommissionInput,
  parseMoneyInput,
  toExecutionInput,
  toExecutionTimes,
  TRADE_RESULTS,
  tradeFormOutcome,
  zoneNameOfEntry,
  type ExecutionFormValues,
  type TradeFormValues,
  type TradeResult,
} from '../../../domain/trades';
import type { Trade } from '../../shared/api';

/** 'All Trades' in the Account field saves the trade without an account (it then shows as Unassigned). */
export const NO_ACCOUNT = 'none';

/**
 * Everything the Add/Edit Trade dialog holds while the trader types: the domain's trade form and execution form, the
 * money boxes' text as typed (the amounts they mean are in `values`), and what the trader has touched.
 */
export interface TradeFormState {
  values: TradeFormValues;
  execution: ExecutionFormValues;
  pnlText: string;
  commissionText: string;
  /** A trading account's id, or NO_ACCOUNT. */
  accountId: string;
  /** The trader chose the account: the default account arriving late no longer replaces it. */
  accountTouched: boolean;
  /** A new trade may take a playbook here; its rules are ticked on the trade's page. */
  playbookId: string | null;
  /** The trader typed a P&L: the prices of a known futures contract no longer make it. */
  pnlTyped: boolean;
  /** The entry or exit time was changed: an edit sends the times again. */
  timesTouched: boolean;
  /** A submit was refused for an empty required field: the field itself says so. */
  tried: boolean;
}

export type TradeFormAction =
  | { type: 'reset'; state: TradeFormState }
  /** The default account became known (the accounts arrived after the dialog opened). */
  | { type: 'default-account'; accountId: string }
  | { type: 'choose-account'; accountId: string | null }
  | { type: 'choose-playbook'; playbookId: string | null }
  | { type: 'change-date'; day: string | null }
  | { type: 'change-instrument'; instrument: string }
  | { type: 'change'; patch: Partial<Pick<TradeFormValues, 'type' | 'session' | 'link' | 'notes' | 'tags'>> }
  | { type: 'change-execution'; patch: Partial<ExecutionFormValues> }
  | { type: 'type-pnl'; text: string }
  | { type: 'choose-result'; result: TradeResult }
  | { type: 'type-commission'; text: string }
  | { type: 'leave-commission' }
  | { type: 'refuse-submit' };

/** The dialog as it opens: on a stored trade to edit, else on a new trade of `today` in the given account. */
export function initTradeForm({
  trade,
  today,
  timeZone,
  accountId,
}: {
  trade: Trade | null;
  today: string;
  timeZone: string;
  accountId: string | null;
}): TradeFormState {
  const values = trade
    ? createEditTradeForm({
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
      })
    : createNewTradeForm(today);
  return {
    values,
    execution: trade ? createExecutionForm(trade, timeZone) : EMPTY_EXECUTION_FORM,
    pnlText: formatMoneyInput(values.pnlCents),
    commissionText: formatMoneyInput(values.commissionCents),
    accountId: accountId ?? NO_ACCOUNT,
    accountTouched: false,
    playbookId: null,
    pnlTyped: false,
    timesTouched: false,
    tried: false,
  };
}

/** A known futures contract's prices and size make its P&L, unless the trader typed their own. */
function followPrices(state: TradeFormState): TradeFormState {
  const gross = computeFormGrossCents(state.values.instrument, state.execution);
  if (gross === null || state.pnlTyped) return state;
  const result = gross > 0 ? 'Win' : gross < 0 ? 'Loss' : 'BE';
  return { ...state, values: { ...state.values, pnlCents: gross, result }, pnlText: formatMoneyInput(gross) };
}

export function reduceTradeForm(state: TradeFormState, action: TradeFormAction): TradeFormState {
  switch (action.type) {
    case 'reset':
      // The playbook chosen for the last new trade stays chosen for the next one.
      return { ...action.state, playbookId: state.playbookId };
    case 'default-account':
      return state.accountTouched ? state : { ...state, accountId: action.accountId };
    case 'choose-account':
      return { ...state, accountTouched: true, accountId: action.accountId ?? NO_ACCOUNT };
    case 'choose-playbook':
      return { ...state, playbookId: action.playbookId };
    case 'change-date': {
      const { day } = action;
      return { ...state, values: day && isCalendarDay(day) ? changeFormDate(state.values, day) : { ...state.values, date: '' } };
    }
    case 'change-instrument':
      return followPrices({ ...state, values: { ...state.values, instrument: action.instrument } });
    case 'change':
      return { ...state, values: { ...state.values, ...action.patch } };
    case 'change-execution': {
      const { patch } = action;
      const timesTouched = state.timesTouched || 'entryTime' in patch || 'exitTime' in patch;
      return followPrices({ ...state, execution: { ...state.execution, ...patch }, timesTouched });
    }
    case 'type-pnl': {
      if (!isMoneyTyping(action.text)) return state;
      const typed = parseMoneyInput(action.text);
      const values = editTradeForm(state.values, { field: 'pnl', pnlCents: typed });
      // A coupling changed the amount (Loss makes it negative, BE keeps 0): the field shows what will be saved.
      const pnlText = values.pnlCents === typed ? action.text : formatMoneyInput(values.pnlCents);
      return { ...state, values, pnlText, pnlTyped: true };
    }
    case 'choose-result': {
      const values = editTradeForm(state.values, { field: 'result', result: action.result });
      const pnlText = values.pnlCents !== state.values.pnlCents ? formatMoneyInput(values.pnlCents) : state.pnlText;
      return { ...state, values, pnlText };
    }
    case 'type-commission':
      if (!isMoneyTyping(action.text)) return state;
      return {
        ...state,
        commissionText: action.text,
        values: editTradeForm(state.values, { field: 'commission', commissionCents: parseCommissionInput(action.text) }),
      };
    case 'leave-commission':
      // A commission is stored as an absolute value: the box shows what will be saved.
      return { ...state, commissionText: formatMoneyInput(state.values.commissionCents) };
    case 'refuse-submit':
      return { ...state, tried: true };
  }
}

/** What the dialog shows under the amounts: the net and the result that will be saved, the P&L the prices make. */
export function previewTradeForm(state: TradeFormState) {
  const outcome = tradeFormOutcome(state.values);
  return {
    outcome,
    netCents: outcome.netCents,
    savedResult: deriveFormResult(state.values),
    pricedGross: computeFormGrossCents(state.values.instrument, state.execution),
  };
}

/** Why a submit cannot go: a required field is empty (date, session, result), or a time is not a time. */
export function findTradeFormProblem(state: TradeFormState): 'required' | 'times' | null {
  const { values, execution } = state;
  if (!isCalendarDay(values.date) || values.session.trim() === '' || !TRADE_RESULTS.includes(values.result)) return 'required';
  if (!isClockTime(execution.entryTime) || !isClockTime(execution.exitTime)) return 'times';
  return null;
}

/** The clock day the typed entry time is on: the trade's date, or the evening an edited overnight entry was on. */
function entryDayOf(state: TradeFormState, editTrade: Trade | null, timeZone: string): string {
  const dateChanged = editTrade !== null && editTrade.date !== state.values.date;
  return editTrade?.entry_time && !dateChanged ? getClockDay(editTrade.entry_time, timeZone) : state.values.date;
}

/**
 * The zone's name beside the entry time, at the time the save would store (EDT for a June trade, EST for a January
 * one, whatever today is); null while there is no date to name it at.
 */
export function entryZoneName(state: TradeFormState, editTrade: Trade | null, timeZone: string): string | null {
  return zoneNameOfEntry(entryDayOf(state, editTrade, timeZone), state.execution.entryTime, timeZone);
}

/**
 * The body of the save, the same for a new trade and an edit. Times go on the trader's clock, on the trade's date (an
 * edited overnight entry keeps the evening it was on). An edit sends them only when they or the date changed: stored
 * times keep their seconds.
 */
export function toTradeBody(state: TradeFormState, editTrade: Trade | null, timeZone: string) {
  const { values, execution } = state;
  const dateChanged = editTrade !== null && editTrade.date !== values.date;
  const entryDay = entryDayOf(state, editTrade, timeZone);
  const times = editTrade && !state.timesTouched && !dateChanged ? {} : toExecutionTimes(execution, entryDay, timeZone);
  return {
    date: values.date,
    symbol: values.instrument.trim(),
    period: values.session,
    trade_type: values.type,
    status: deriveFormResult(values),
    pnl: centsToDecimalString(tradeFormOutcome(values).netCents),
    link: values.link.trim(),
    notes: values.notes,
    tags: values.tags,
    ...toExecutionInput(execution),
    ...times,
  };
}

/** A new trade's body: the common fields with its account, playbook and commission. */
export function toNewTradeBody(state: TradeFormState, timeZone: string) {
  return {
    ...toTradeBody(state, null, timeZone),
    account_id: state.accountId === NO_ACCOUNT ? null : state.accountId,
    playbook_id: state.playbookId,
    commission: centsToDecimalString(state.values.commissionCents),
  };
}
