import { describe, expect, it } from 'vitest';
import {
  applyPnlEntry,
  applyResultChoice,
  changeFormDate,
  createEditTradeForm,
  createNewTradeForm,
  deriveFormResult,
  enterFormPnl,
  selectFormResult,
  toGrossPnlCents,
  toNetPnlCents,
} from './trade-form';

describe('editing couplings between result and pnl (spec part 2 §4)', () => {
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
    form = enterFormPnl(form, 12050);
    expect(form.pnlCents).toBe(12050);
    form = selectFormResult(form, 'Loss');
    expect([form.result, form.pnlCents]).toEqual(['Loss', -12050]);
    form = enterFormPnl(form, 3000);
    expect(form.pnlCents).toBe(-3000);
    form = selectFormResult(form, 'BE');
    expect([form.result, form.pnlCents]).toEqual(['BE', 0]);
  });
});

describe('new trade form (spec part 2 §9 defaults)', () => {
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

  it('a BE choice with $4.50 commission saves as a Loss of -$4.50 (result from net pnl, §4)', () => {
    const form = { ...selectFormResult(createNewTradeForm('2026-03-09'), 'BE'), commissionCents: 450 };
    expect(deriveFormResult(form)).toBe('Loss');
    expect(toNetPnlCents(form.pnlCents, form.commissionCents)).toBe(-450);
  });
});

describe('pnl before commission in the form, net in storage (spec part 2 §2 and §3)', () => {
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
