import { describe, expect, it } from 'vitest';
import { normalizeTradeInput } from './normalize-trade';

const FORM = { pnlBasis: 'beforeCommission', timeZone: 'America/New_York' } as const;
const STORED = { pnlBasis: 'net', timeZone: 'America/New_York' } as const;

describe('normalizing trade input into the stored shape', () => {
  it('an add-dialog NQ winner: +$300.00 before $4.28 commission stores net $295.72 as a Win at 12:00 UTC', () => {
    const result = normalizeTradeInput(
      {
        date: '2026-03-09',
        instrument: ' NQ ',
        session: 'AM',
        type: 'A/A+',
        result: 'Loss',
        pnl: '300',
        commission: '-4.28',
        link: ' https://tradingview.com/x ',
        notes: 'Clean sweep of the overnight low',
        tags: 'Sweep, NQ',
      },
      FORM,
    );
    expect(result).toEqual({
      ok: true,
      trade: {
        symbol: 'NQ',
        tradeDate: '2026-03-09T12:00:00.000Z',
        tradeDay: '2026-03-09',
        dayOfWeek: 'Monday',
        period: 'AM',
        tradeType: 'A/A+',
        side: null,
        status: 'Win',
        pnlCents: 29572,
        commissionCents: 428,
        link: 'https://tradingview.com/x',
        notes: 'Clean sweep of the overnight low',
        tags: ['Sweep', 'NQ'],
      },
    });
  });

  it('a stored-shape ES loser (snake_case, net pnl) keeps its pnl and recomputes a wrong day_of_week', () => {
    const result = normalizeTradeInput(
      {
        symbol: 'ES',
        trade_date: '2026-03-10T12:00:00.000Z',
        day_of_week: 'Friday',
        period: 'PM',
        trade_type: 'SHORT',
        status: 'Win',
        pnl: -191.78,
        commission: 4.28,
        tags: ['ES'],
      },
      STORED,
    );
    expect(result.ok && result.trade).toMatchObject({
      // The spec samples' type SHORT is the side, not a setup.
      side: 'Short',
      tradeType: '',
      tradeDay: '2026-03-10',
      dayOfWeek: 'Tuesday',
      status: 'Loss',
      pnlCents: -19178,
      commissionCents: 428,
    });
  });

  it('non-numeric pnl and commission count as 0 and give BE', () => {
    const result = normalizeTradeInput({ date: '2026-03-09', session: 'PM', pnl: 'big win', commission: 'n/a' }, FORM);
    expect(result.ok && [result.trade.pnlCents, result.trade.commissionCents, result.trade.status]).toEqual([0, 0, 'BE']);
  });

  it('a fill time after 20:00 New York on Monday stays on Monday, not Tuesday UTC', () => {
    const result = normalizeTradeInput({ date: '2026-03-10T00:30:00Z', session: 'Overnight', pnl: 10 }, FORM);
    expect(result.ok && [result.trade.tradeDay, result.trade.tradeDate]).toEqual(['2026-03-09', '2026-03-09T12:00:00.000Z']);
  });

  it('names missing date and session with the spec message', () => {
    expect(normalizeTradeInput({ date: ' ', session: ' ', pnl: 5 }, FORM)).toEqual({
      ok: false,
      error: 'Please fill in all required fields.',
      missing: ['date', 'session'],
    });
    expect(normalizeTradeInput({ session: 'AM', pnl: 5 }, FORM)).toMatchObject({ ok: false, missing: ['date'] });
  });

  it('names a date that is given but is no date by the key it came under (it said a field was missing)', () => {
    for (const [key, value] of [
      ['date', 'Mar 9'],
      ['trade_date', '2026-02-30'],
      ['tradeDate', '2026-02-30T10:00:00Z'],
      ['trade_date', '0000-01-01T00:00:00Z'],
    ] as const) {
      expect(normalizeTradeInput({ [key]: value, session: 'AM' }, FORM)).toEqual({
        ok: false,
        error: `${key}: must be a date as yyyy-MM-dd or an ISO timestamp with its zone`,
        invalid: key,
      });
    }
  });

  it('defaults a blank symbol to Unknown and other text to empty', () => {
    const result = normalizeTradeInput({ date: '2026-03-09', session: 'AM' }, FORM);
    expect(result.ok && result.trade).toMatchObject({ symbol: 'Unknown', tradeType: '', link: '', notes: '', tags: [] });
  });
});
