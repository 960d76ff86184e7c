import { describe, expect, it } from 'vitest';
import { makeTrade } from '../../test/fixtures';
import {
  entryZoneName,
  findTradeFormProblem,
  initTradeForm,
  NO_ACCOUNT,
  previewTradeForm,
  reduceTradeForm,
  toNewTradeBody,
  toTradeBody,
  type TradeFormAction,
  type TradeFormState,
} from './trade-form-state';

const NY = 'America/New_York';
const newTrade = (accountId: string | null = null) => initTradeForm({ trade: null, today: '2025-03-03', timeZone: NY, accountId });
const apply = (state: TradeFormState, ...actions: TradeFormAction[]) => actions.reduce(reduceTradeForm, state);

describe('the Add/Edit Trade dialog reducer', () => {
  it('a new trade opens on NQ, AM, A/A+, Win, $0 in the account it was opened for', () => {
    const state = newTrade('acc-1');
    expect(state.values).toMatchObject({
      date: '2025-03-03',
      day: 'Monday',
      instrument: 'NQ',
      session: 'AM',
      type: 'A/A+',
      result: 'Win',
      pnlCents: 0,
    });
    expect(state).toMatchObject({ pnlText: '0', commissionText: '0', accountId: 'acc-1', tried: false });
    expect(newTrade().accountId).toBe(NO_ACCOUNT);
  });

  it('an NQ long of 2 from 18250.25 to 18271.50 makes $850 and a Win, until the trader types a P&L', () => {
    let state = apply(newTrade(), {
      type: 'change-execution',
      patch: { side: 'Long', quantity: '2', entryPrice: '18250.25', exitPrice: '18271.50' },
    });
    expect(state.values).toMatchObject({ pnlCents: 85_000, result: 'Win' });
    expect(state.pnlText).toBe('850');
    // A short of the same prices loses it.
    state = apply(state, { type: 'change-execution', patch: { side: 'Short' } });
    expect(state.values).toMatchObject({ pnlCents: -85_000, result: 'Loss' });
    // Typed over, the P&L stays the trader's whatever the prices do next.
    state = apply(state, { type: 'type-pnl', text: '-700' }, { type: 'change-execution', patch: { exitPrice: '18300' } });
    expect(state.values.pnlCents).toBe(-70_000);
    expect(state.pnlText).toBe('-700');
  });

  it('a change of instrument prices the trade again, and an unknown instrument leaves the P&L alone', () => {
    let state = apply(newTrade(), { type: 'change-execution', patch: { side: 'Long', quantity: '1', entryPrice: '5000', exitPrice: '5002' } });
    expect(state.values.pnlCents).toBe(4_000); // NQ: 2 points x $20
    state = apply(state, { type: 'change-instrument', instrument: 'ES' });
    expect(state.values.pnlCents).toBe(10_000); // ES: 2 points x $50
    state = apply(state, { type: 'change-instrument', instrument: 'AAPL' });
    expect(state.values).toMatchObject({ instrument: 'AAPL', pnlCents: 10_000 });
  });

  it('choosing Loss turns a typed gain negative and the box shows it; a gain typed under Loss turns negative too', () => {
    let state = apply(newTrade(), { type: 'type-pnl', text: '125' }, { type: 'choose-result', result: 'Loss' });
    expect(state.values).toMatchObject({ pnlCents: -12_500, result: 'Loss' });
    expect(state.pnlText).toBe('-125');
    state = apply(state, { type: 'type-pnl', text: '50' });
    expect(state.values.pnlCents).toBe(-5_000);
    expect(state.pnlText).toBe('-50');
    // BE keeps 0 whatever is typed.
    state = apply(state, { type: 'choose-result', result: 'BE' }, { type: 'type-pnl', text: '30' });
    expect(state.values.pnlCents).toBe(0);
    expect(state.pnlText).toBe('0');
  });

  it('letters never reach an amount: the state is left as it was', () => {
    const state = apply(newTrade(), { type: 'type-pnl', text: '12' });
    expect(reduceTradeForm(state, { type: 'type-pnl', text: '12a' })).toBe(state);
    expect(reduceTradeForm(state, { type: 'type-commission', text: 'x' })).toBe(state);
  });

  it('a commission is kept as typed while typing and shown absolute once the box is left; the net is after it', () => {
    let state = apply(newTrade(), { type: 'type-pnl', text: '125' }, { type: 'type-commission', text: '-4.28' });
    expect(state.commissionText).toBe('-4.28');
    expect(state.values.commissionCents).toBe(428);
    state = apply(state, { type: 'leave-commission' });
    expect(state.commissionText).toBe('4.28');
    expect(previewTradeForm(state)).toMatchObject({ netCents: 12_072, savedResult: 'Win' });
  });

  it('a $3 gain under $4.28 of fees is saved as a Loss, and the Result shows the Loss', () => {
    const state = apply(newTrade(), { type: 'type-pnl', text: '3' }, { type: 'type-commission', text: '4.28' });
    expect(previewTradeForm(state)).toMatchObject({ netCents: -128, savedResult: 'Loss', outcome: { result: 'Loss', blank: false } });
  });

  it('the default account arriving late is taken, unless the trader chose an account already', () => {
    expect(apply(newTrade(), { type: 'default-account', accountId: 'acc-2' }).accountId).toBe('acc-2');
    const chosen = apply(newTrade(), { type: 'choose-account', accountId: null }, { type: 'default-account', accountId: 'acc-2' });
    expect(chosen.accountId).toBe(NO_ACCOUNT);
  });

  it('opening again starts afresh, keeping only the playbook chosen last', () => {
    const used = apply(newTrade(), { type: 'type-pnl', text: '10' }, { type: 'choose-playbook', playbookId: 'pb-1' }, { type: 'refuse-submit' });
    const reopened = reduceTradeForm(used, { type: 'reset', state: newTrade('acc-1') });
    expect(reopened).toMatchObject({ pnlText: '0', tried: false, pnlTyped: false, accountId: 'acc-1', playbookId: 'pb-1' });
  });

  it('a submit needs a date, a session and a result, and times written as times', () => {
    expect(findTradeFormProblem(newTrade())).toBeNull();
    expect(findTradeFormProblem(apply(newTrade(), { type: 'change', patch: { session: '  ' } }))).toBe('required');
    expect(findTradeFormProblem(apply(newTrade(), { type: 'change-date', day: null }))).toBe('required');
    expect(findTradeFormProblem(apply(newTrade(), { type: 'change-execution', patch: { entryTime: '9:7' } }))).toBe('times');
    expect(findTradeFormProblem(apply(newTrade(), { type: 'change-execution', patch: { entryTime: '9:35', exitTime: '' } }))).toBeNull();
  });

  it("a new trade's body: net P&L, result, commission, account and times on the trader's clock", () => {
    const state = apply(
      newTrade('acc-1'),
      { type: 'change', patch: { notes: 'Waited for the retest.', link: '  https://x.test/chart  ' } },
      { type: 'type-pnl', text: '125' },
      { type: 'type-commission', text: '4.28' },
      { type: 'change-execution', patch: { entryTime: '09:35', exitTime: '09:50' } },
    );
    expect(toNewTradeBody(state, NY)).toMatchObject({
      date: '2025-03-03',
      symbol: 'NQ',
      period: 'AM',
      status: 'Win',
      pnl: '120.72',
      commission: '4.28',
      account_id: 'acc-1',
      playbook_id: null,
      link: 'https://x.test/chart',
      notes: 'Waited for the retest.',
      entry_time: '2025-03-03T14:35:00.000Z',
      exit_time: '2025-03-03T14:50:00.000Z',
    });
    expect(toNewTradeBody(apply(state, { type: 'choose-account', accountId: NO_ACCOUNT }), NY).account_id).toBeNull();
  });

  it('an edit shows the P&L before commission, saves the same net back, and sends times only when they changed', () => {
    const trade = makeTrade({ pnl: '120.72', commission: '4.28', entry_time: '2025-03-03T14:35:12.000Z', exit_time: '2025-03-03T14:50:40.000Z' });
    const state = initTradeForm({ trade, today: '2025-03-10', timeZone: NY, accountId: null });
    expect(state.pnlText).toBe('125');
    expect(state.execution).toMatchObject({ entryTime: '09:35', exitTime: '09:50' });
    const unchanged = toTradeBody(state, trade, NY);
    expect(unchanged.pnl).toBe('120.72');
    expect(unchanged).not.toHaveProperty('entry_time');
    // A new exit time sends both, on the day the entry was on.
    const moved = toTradeBody(apply(state, { type: 'change-execution', patch: { exitTime: '10:05' } }), trade, NY);
    expect(moved).toMatchObject({ entry_time: '2025-03-03T14:35:00.000Z', exit_time: '2025-03-03T15:05:00.000Z' });
  });
});

describe('the zone named beside the entry time', () => {
  it("is the zone at the trade's own date and entry, not today's: EDT in June, EST in January", () => {
    const june = apply(newTrade(), { type: 'change-date', day: '2025-06-16' }, { type: 'change-execution', patch: { entryTime: '09:30' } });
    expect(entryZoneName(june, null, NY)).toBe('EDT');
    const january = apply(newTrade(), { type: 'change-date', day: '2026-01-16' }, { type: 'change-execution', patch: { entryTime: '09:30' } });
    expect(entryZoneName(january, null, NY)).toBe('EST');
  });

  it('an edited entry is named at the time it was stored: 00:30 on the night the clocks go forward is still EST', () => {
    // Stored 05:30 UTC on 8 March 2026 is 00:30 EST, before the 02:00 change; the trade's date is the day after, when
    // 00:30 would be EDT. The trade page names the stored time EST; the dialog must say the same.
    const trade = makeTrade({ date: '2026-03-09', trade_date: '2026-03-08T05:30:00.000Z', entry_time: '2026-03-08T05:30:00.000Z' });
    const state = initTradeForm({ trade, today: '2026-12-06', timeZone: NY, accountId: null });
    expect(state.execution.entryTime).toBe('00:30');
    expect(entryZoneName(state, trade, NY)).toBe('EST');
  });

  it('names no zone while the trade has no date', () => {
    const state = apply(newTrade(), { type: 'change-date', day: null });
    expect(entryZoneName(state, null, NY)).toBeNull();
  });
});
