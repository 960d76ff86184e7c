import { describe, expect, it } from 'vitest';
import {
  applyPnlEntry,
  applyResultChoice,
  changeFormDate,
  createEditTradeForm,
  createNewTradeForm,
  deriveFormResult,
  editTradeForm,
  toGrossPnlCents,
  toNetPnlCents,
  tradeFormOutcome,
  type TradeFormValues,
} from './trade-form';
import { formatMoneyInput } from './money-input';

const chooseResult = (form: TradeFormValues, result: 'Win' | 'Loss' | 'BE') => editTradeForm(form, { field: 'result', result });
const typePnl = (form: TradeFormValues, pnlCents: number) => editTradeForm(form, { field: 'pnl', pnlCents });
const typeCommission = (form: TradeFormValues, commissionCents: number) => editTradeForm(form, { field: 'commission', commissionCents });

describe('editing couplings between result and pnl', () => {
  it('choosing Loss with +$250.00 makes it -$250.00', () => {
    expect(applyResultChoice(25000, 'Loss')).toBe(-25000);
  });

  it('choosing Loss with -$80.00 keeps it', () => {
    expect(applyResultChoice(-8000, 'Loss')).toBe(-8000);
  });

  it('choosing Win with -$80.00 makes it +$80.00', () => {
    expect(applyResultChoice(-8000, 'Win')).toBe(8000);
  });

  it('choosing BE sets the pnl to 0 from either side', () => {
    expect(applyResultChoice(12345, 'BE')).toBe(0);
    expect(Object.is(applyResultChoice(-12345, 'BE'), 0)).toBe(true);
  });

  it('typing +$99.99 while Loss is chosen stores -$99.99', () => {
    expect(applyPnlEntry(9999, 'Loss')).toBe(-9999);
  });

  it('typing -$40.00 while Win is chosen is kept (no coupling in the spec; save derives Loss)', () => {
    expect(applyPnlEntry(-4000, 'Win')).toBe(-4000);
  });

  it('typing any non-zero pnl while BE is chosen resets it to 0', () => {
    expect(applyPnlEntry(500, 'BE')).toBe(0);
    expect(Object.is(applyPnlEntry(-500, 'BE'), 0)).toBe(true);
  });

  it('walks a form: default Win, type 120.50, choose Loss, type 30, choose BE', () => {
    let form = createNewTradeForm('2026-03-09');
    form = typePnl(form, 12050);
    expect(form.pnlCents).toBe(12050);
    form = chooseResult(form, 'Loss');
    expect([form.result, form.pnlCents]).toEqual(['Loss', -12050]);
    form = typePnl(form, 3000);
    expect(form.pnlCents).toBe(-3000);
    form = chooseResult(form, 'BE');
    expect([form.result, form.pnlCents]).toEqual(['BE', 0]);
  });
});

describe('new trade form defaults', () => {
  it('starts as NQ, AM, A/A+, Win, pnl 0, commission 0 on the given day with its day name', () => {
    expect(createNewTradeForm('2026-03-09')).toEqual({
      date: '2026-03-09',
      day: 'Monday',
      instrument: 'NQ',
      session: 'AM',
      type: 'A/A+',
      result: 'Win',
      pnlCents: 0,
      commissionCents: 0,
      link: '',
      notes: '',
      tags: [],
    });
  });

  it('recomputes the day name when the date changes', () => {
    expect(changeFormDate(createNewTradeForm('2026-03-09'), '2026-03-13').day).toBe('Friday');
  });

  it('a BE choice with $4.50 commission saves as a Loss of -$4.50 (result from net pnl)', () => {
    const form = typeCommission(chooseResult(createNewTradeForm('2026-03-09'), 'BE'), 450);
    expect(deriveFormResult(form)).toBe('Loss');
    expect(toNetPnlCents(form.pnlCents, form.commissionCents)).toBe(-450);
  });
});

describe('pnl before commission in the form, net in storage', () => {
  it('a $300.00 gross with $4.28 commission is stored as $295.72 and shown back as $300.00', () => {
    expect(toNetPnlCents(30000, 428)).toBe(29572);
    expect(toGrossPnlCents(29572, 428)).toBe(30000);
  });

  it('the edit form shows net + commission so an unchanged save keeps the stored net pnl', () => {
    const form = createEditTradeForm({
      tradeDay: '2026-03-10',
      symbol: 'ES',
      period: 'PM',
      tradeType: 'Breakout',
      status: 'Loss',
      pnlCents: -19178,
      commissionCents: 428,
      link: '',
      notes: 'chased',
      tags: ['ES'],
    });
    expect(form.pnlCents).toBe(-18750);
    expect(form.day).toBe('Tuesday');
    expect(toNetPnlCents(form.pnlCents, form.commissionCents)).toBe(-19178);
  });
});

describe('what the trader sees as they type: the sign and the result that will be saved', () => {
  const lossRow = () =>
    createEditTradeForm({
      tradeDay: '2026-03-10',
      symbol: 'MNQ',
      period: 'AM',
      tradeType: 'A/A+',
      status: 'Loss',
      pnlCents: -20428,
      commissionCents: 428,
      link: '',
      notes: '',
      tags: [],
    });

  it('a Loss row with $4.28 fees: typing 150 shows -150 and says -$154.28, Loss, before Done', () => {
    const form = typePnl(lossRow(), 15000);
    expect(formatMoneyInput(form.pnlCents)).toBe('-150');
    expect(tradeFormOutcome(form)).toEqual({ netCents: -15428, result: 'Loss', blank: false });
  });

  it('Add Trade: Win chosen, $3 with $5 commission shows Loss (the result saved), not Win', () => {
    const form = typeCommission(typePnl(createNewTradeForm('2026-03-09'), 300), 500);
    expect(form.result).toBe('Win');
    expect(tradeFormOutcome(form)).toEqual({ netCents: -200, result: 'Loss', blank: false });
    expect(tradeFormOutcome(form).result).toBe(deriveFormResult(form));
  });

  it('Win chosen, -$40 typed: the pnl stays -40 and the Result shows Loss', () => {
    const form = typePnl(createNewTradeForm('2026-03-09'), -4000);
    expect(form.pnlCents).toBe(-4000);
    expect(tradeFormOutcome(form).result).toBe('Loss');
  });

  it('typing 25 through 2 with $4.28 fees under Win ends at +$25 (a Loss shown at 2 does not turn 25 negative)', () => {
    let form = typeCommission(createNewTradeForm('2026-03-09'), 428);
    form = typePnl(form, 200);
    expect(tradeFormOutcome(form).result).toBe('Loss');
    form = typePnl(form, 2500);
    expect(form.pnlCents).toBe(2500);
    expect(tradeFormOutcome(form)).toEqual({ netCents: 2072, result: 'Win', blank: false });
  });

  it('choosing the Loss already shown (BE chosen, $4.28 fees) lets a typed 10 become -10', () => {
    let form = chooseResult(typeCommission(createNewTradeForm('2026-03-09'), 428), 'BE');
    expect(tradeFormOutcome(form).result).toBe('Loss');
    expect(typePnl(form, 1000).pnlCents).toBe(0);
    form = chooseResult(form, 'Loss');
    form = typePnl(form, 1000);
    expect(form.pnlCents).toBe(-1000);
    expect(tradeFormOutcome(form)).toEqual({ netCents: -1428, result: 'Loss', blank: false });
  });

  it('a new trade opens on Win with $0 shown as blank; $4.28 of fees alone makes it a Loss', () => {
    const form = createNewTradeForm('2026-03-09');
    expect(tradeFormOutcome(form)).toEqual({ netCents: 0, result: 'Win', blank: true });
    expect(deriveFormResult(form)).toBe('BE');
    expect(tradeFormOutcome(typeCommission(form, -428))).toEqual({ netCents: -428, result: 'Loss', blank: false });
  });

  it('gross equal to the fees nets $0.00: BE shown and saved', () => {
    const form = typeCommission(typePnl(createNewTradeForm('2026-03-09'), 428), 428);
    expect(tradeFormOutcome(form)).toEqual({ netCents: 0, result: 'BE', blank: false });
  });

  it('a commission typed negative is kept absolute', () => {
    expect(typeCommission(createNewTradeForm('2026-03-09'), -500).commissionCents).toBe(500);
  });
});

describe('money boxes show amounts back as typed', () => {
  it.each([
    [0, '0'],
    [12500, '125'],
    [-9550, '-95.50'],
    [-50, '-0.50'],
    [5, '0.05'],
    [-15000, '-150'],
  ])('%i cents shows as %s', (cents, text) => {
    expect(formatMoneyInput(cents)).toBe(text);
  });
});
