import { describe, expect, it } from 'vitest';
import {
  computeFormGrossCents,
  createExecutionForm,
  EMPTY_EXECUTION_FORM,
  isKnownFutures,
  toExecutionInput,
  toExecutionTimes,
  zoneNameOfEntry,
} from './execution-form';

const NEW_YORK = 'America/New_York';

describe('the trade form’s execution', () => {
  it('prices a known futures trade from its prices and size: NQ long 2 from 18250.25 to 18271.50 is $850.00', () => {
    const values = { side: 'Long' as const, quantity: '2', entryPrice: '18,250.25', exitPrice: '18271.50' };
    expect(computeFormGrossCents('NQ', values)).toBe(85_000);
    // MES short 3 from 5012.50 to 5016.75 loses 4.25 x 3 x $5 = $63.75.
    expect(computeFormGrossCents('MESZ5', { side: 'Short', quantity: '3', entryPrice: '5012.50', exitPrice: '5016.75' })).toBe(-6375);
  });

  it('leaves the P&L to the trader without a side, a price, a size, or a futures contract it knows', () => {
    const values = { side: 'Long' as const, quantity: '2', entryPrice: '100', exitPrice: '101' };
    expect(computeFormGrossCents('NQ', { ...values, side: null })).toBeNull();
    expect(computeFormGrossCents('NQ', { ...values, exitPrice: '' })).toBeNull();
    expect(computeFormGrossCents('NQ', { ...values, quantity: '0' })).toBeNull();
    expect(computeFormGrossCents('AAPL', values)).toBeNull();
    expect(['NQ', 'MNQZ5', 'CL', 'BTC', 'AAPL', 'XYZZ5'].map(isKnownFutures)).toEqual([true, true, true, false, false, false]);
  });

  it('reads times on the trader’s clock; an exit earlier on the clock than the entry is the next day', () => {
    expect(toExecutionTimes({ entryTime: '9:35', exitTime: '10:02' }, '2026-03-09', NEW_YORK)).toEqual({
      entry_time: '2026-03-09T13:35:00.000Z',
      exit_time: '2026-03-09T14:02:00.000Z',
    });
    expect(toExecutionTimes({ entryTime: '23:10', exitTime: '00:45' }, '2026-03-09', NEW_YORK)).toEqual({
      entry_time: '2026-03-10T03:10:00.000Z',
      exit_time: '2026-03-10T04:45:00.000Z',
    });
    expect(toExecutionTimes({ entryTime: '', exitTime: '25:00' }, '2026-03-09', NEW_YORK)).toEqual({ entry_time: null, exit_time: null });
  });

  it('shows a stored trade as a trader would have typed it, and sends only the chosen plan', () => {
    const form = createExecutionForm(
      {
        side: 'Short',
        quantity: '3.00000000',
        entry_price: '5020.00000000',
        exit_price: null,
        entry_time: '2026-03-09T13:35:00.000Z',
        exit_time: null,
        stop_price: null,
        risk_amount: '150.00',
        target_price: '5000.50000000',
      },
      NEW_YORK,
    );
    expect(form).toEqual({
      ...EMPTY_EXECUTION_FORM,
      side: 'Short',
      quantity: '3',
      entryPrice: '5020',
      entryTime: '09:35',
      riskKind: 'amount',
      riskAmount: '150',
      targetPrice: '5000.5',
    });
    // A stop typed earlier but the dollar risk chosen: the stop is not sent.
    expect(toExecutionInput({ ...form, stopPrice: '5030' })).toEqual({
      side: 'Short',
      quantity: '3',
      entry_price: '5020',
      exit_price: null,
      stop_price: null,
      risk_amount: '150',
      target_price: '5000.5',
    });
  });
});

describe('the zone named beside the typed times', () => {
  it("names a June trade EDT and a January one EST, from the trade's own day and entry, not from today", () => {
    expect(zoneNameOfEntry('2025-06-16', '09:30', NEW_YORK)).toBe('EDT');
    expect(zoneNameOfEntry('2026-01-16', '09:30', NEW_YORK)).toBe('EST');
    expect(zoneNameOfEntry('2025-06-16', '', NEW_YORK)).toBe('EDT');
    expect(zoneNameOfEntry('2025-06-16', '08:35', 'America/Chicago')).toBe('CDT');
  });

  it('on the morning the clocks spring forward, an entry before 02:00 is EST and one after it EDT', () => {
    expect(zoneNameOfEntry('2026-03-08', '01:30', NEW_YORK)).toBe('EST');
    expect(zoneNameOfEntry('2026-03-08', '09:30', NEW_YORK)).toBe('EDT');
  });

  it('has no name without a day', () => {
    expect(zoneNameOfEntry('', '09:30', NEW_YORK)).toBeNull();
  });
});
