import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakdownReport, calendarReport } from '../../src/contract/reports';
import { calendarCsv, centsForCsv } from '../../src/domain/reports/csv-cells';
import { csvText } from '../../src/domain/reports/csv-text';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { conforms } from '../support/contract';
import { createAccount, createTrade, newTrader } from './trades-support';

/**
 * The reports' CSV export over the API's own figures, on both databases: a losing day's amount is a plain number a
 * spreadsheet sums (the column's sum is the calendar's total to the cent), while a tag or a setup that starts like a
 * formula is still written as escaped text.
 */

/** A decimal dollar cell as cents, exactly ("-211.52" -> -21152); anything else is not a plain number. */
function dollarsToCents(cell: string): number {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(cell);
  if (!match) throw new Error(`not a plain amount: ${JSON.stringify(cell)}`);
  const abs = Number(match[2]) * 100 + Number(match[3]);
  return match[1] ? -abs : abs;
}

describe.each(backends())('report CSV on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;

  beforeAll(async () => {
    app = await startTestApp({ backend });
    alice = await newTrader(app, 'csv');
    const account = await createAccount(alice, 'CSV account');
    const trade = (date: string, pnl: number, extra: Record<string, unknown> = {}) =>
      createTrade(alice, { account_id: account.id, date, symbol: 'MNQ', trade_type: 'Breakout', pnl, commission: 0, ...extra });
    // A losing day of two trades (-211.52 net), winning days around it, one day of a few cents lost.
    await trade('2025-05-08', 130.25);
    await trade('2025-05-09', -200.02, { tags: ['=HYPERLINK("http://evil","x")'] });
    await trade('2025-05-09', -11.5, { trade_type: '-cmd|calc' });
    await trade('2025-05-12', 0.1);
    await trade('2025-05-13', -0.07, { tags: ['@risk'] });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('writes a losing day as a plain negative number, and the column sums to the calendar total to the cent', async () => {
    const { calendar } = conforms(calendarReport, await alice.get('/api/reports/calendar?year=2025'));
    expect(calendar.days.map((d) => d.netCents)).toEqual([13025, -21152, 10, -7]);
    const table = calendarCsv(calendar, false);
    const text = csvText(table.header, table.rows);
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('Trading day,Trades,Net P&L');
    // Unquoted, no apostrophe: a spreadsheet reads a number.
    expect(lines).toContain('2025-05-09,2,-211.52');
    expect(lines).toContain('2025-05-13,1,-0.07');
    expect(text).not.toContain("'");
    const rows = Papa.parse<string[]>(text, { skipEmptyLines: true }).data.slice(1);
    expect(rows.length).toBe(calendar.days.length);
    const sum = rows.reduce((total, row) => total + dollarsToCents(row[2]!), 0);
    expect(sum).toBe(calendar.netCents);
    expect(sum).toBe(13025 - 21152 + 10 - 7);
  });

  it('still escapes a tag or a setup that starts like a formula, next to plain amounts', async () => {
    const tags = conforms(breakdownReport, await alice.get('/api/reports/breakdown?by=tag')).breakdown.rows;
    const setups = conforms(breakdownReport, await alice.get('/api/reports/breakdown?by=setup')).breakdown.rows;
    const write = (rows: typeof tags) =>
      csvText(
        ['Label', 'Trades', 'Net P&L'],
        rows.map((r) => [r.label, r.trades, centsForCsv(r.netCents)]),
      );
    const tagRows = Papa.parse<string[]>(write(tags), { skipEmptyLines: true }).data.slice(1);
    expect(tagRows).toContainEqual([`'=HYPERLINK("http://evil","x")`, '1', '-200.02']);
    expect(tagRows).toContainEqual(["'@risk", '1', '-0.07']);
    const setupRows = Papa.parse<string[]>(write(setups), { skipEmptyLines: true }).data.slice(1);
    expect(setupRows).toContainEqual(["'-cmd|calc", '1', '-11.50']);
    expect(setupRows).toContainEqual(['Breakout', '4', '-69.74']);
  });
});
