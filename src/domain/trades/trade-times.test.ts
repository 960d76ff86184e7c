import { describe, expect, it } from 'vitest';
import { formatExecutionTime, formatQuantity, grossPnlCentsOf } from './trade-times';

describe('execution times in the trader’s zone', () => {
  it('a 09:31:05 New York entry reads 09:31:05 in New York and 22:31:05 in Tokyo, the same trading day', () => {
    expect(formatExecutionTime('2026-03-10T13:31:05.000Z', 'America/New_York', '2026-03-10')).toBe('09:31:05');
    expect(formatExecutionTime('2026-03-10T13:31:05.000Z', 'Asia/Tokyo', '2026-03-10')).toBe('22:31:05');
  });

  it('a Globex entry at 18:05 New York on Mar 9 counts for Mar 10: the date is shown in front', () => {
    expect(formatExecutionTime('2026-03-09T22:05:10.000Z', 'America/New_York', '2026-03-10')).toBe('Mar 9 18:05:10');
  });

  it('London across the US daylight-saving change (Mar 8 2026): 13:31 UTC is 13:31 in London, 09:31 in New York', () => {
    expect(formatExecutionTime('2026-03-10T13:31:00Z', 'Europe/London')).toBe('13:31:00');
    expect(formatExecutionTime('2026-03-06T14:31:00Z', 'America/New_York')).toBe('09:31:00');
  });

  it('no time, or a time without its zone, shows nothing rather than a guess', () => {
    expect(formatExecutionTime(null, 'America/New_York')).toBeNull();
    expect(formatExecutionTime('2026-03-10 09:31:05', 'America/New_York')).toBeNull();
  });
});

describe('sizes and money', () => {
  it('quantities read as typed', () => {
    expect(formatQuantity('3.00000000')).toBe('3');
    expect(formatQuantity('0.50000000')).toBe('0.5');
    expect(formatQuantity('12')).toBe('12');
    expect(formatQuantity(null)).toBeNull();
  });

  it('gross P&L: the import’s own figure, else net plus the commission (the form’s before-commission pnl)', () => {
    expect(grossPnlCentsOf({ pnl: '405.72', commission: '4.28', gross_pnl: '410.00' })).toBe(41000);
    expect(grossPnlCentsOf({ pnl: '-154.28', commission: '4.28', gross_pnl: null })).toBe(-15000);
    expect(grossPnlCentsOf({ pnl: '0.10', commission: '0.20', gross_pnl: null })).toBe(30);
  });
});
