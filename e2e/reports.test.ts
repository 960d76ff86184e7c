import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../tests/support/app';
import { brokerFile, importFile } from '../tests/api/imports-support';
import { createTrade } from '../tests/api/trades-support';
import { signedInTrader } from './pages/trade-log';
import { seriousA11yViolations } from './support/a11y';
import { eventually, SCREEN_PAIRS, useAppTheme, useE2ESuite, waitForPath, type Scenario } from './support/scenario';

/**
 * The Reports page in Chromium (issue 26): the filter bar kept in the URL with back and forward, a drill-down from a
 * breakdown's row into the filtered Trade Log, Compare with a preset, a table exported as CSV, and every report at
 * 390 and 1440 px in both themes with axe. Screenshots go to SCREENSHOT_DIR (or a temporary directory).
 */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-reports-'));
const TOPSTEPX = 'topstepx-trades/angrybuhda-futures-trading-profile__trades_export.csv';

const suite = useE2ESuite(() => ({ env: { AUTH_RATE_LIMIT: '1000' } }));

/** A trader whose trades are a real TopstepX export (334 round trips with times) and two manual trades. */
async function traderWithTrades(s: Scenario): Promise<ApiClient> {
  const api = await signedInTrader(suite.e2e.app, s.context, 'reports');
  const account = (await api.post('/api/accounts', { name: 'Topstep 50K' })).body as { id: string };
  const imported = await importFile(api, { account_id: account.id, time_zone: 'America/New_York' }, brokerFile(TOPSTEPX));
  if (imported.status !== 200) throw new Error(`import failed: ${imported.status}`);
  await createTrade(api, { date: '2025-05-09', symbol: 'MNQ', period: 'PM', trade_type: 'Breakout', pnl: -25.5, tags: ['FOMO'] });
  await createTrade(api, { date: '2025-05-12', symbol: 'MES', period: 'AM', trade_type: 'Breakout', pnl: 40, tags: ['A+'] });
  return api;
}

const summary = (page: Page) => page.getByTestId('report-summary');
const tradesIn = async (page: Page) => Number(/· ([\d,]+) trades?$/.exec(await summary(page).innerText())?.[1]?.replace(/,/g, ''));

describe('the filter bar, the URL and the Trade Log', () => {
  it('keeps the filter in the URL, walks back and forward, and drills from a breakdown row into the filtered Trade Log', async () => {
    const s = await suite.scenario({ width: 1440, height: 900 });
    const api = await traderWithTrades(s);
    const { page } = s;
    await page.goto('/reports');
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await eventually(() => tradesIn(page)).toBe(336);
    expect(await page.getByTestId('figure-trades').getByTestId('figure-value').innerText()).toBe('336');

    // Shorts only: the URL says so, a chip says so, the figures follow.
    const shorts = (await api.get('/api/reports/overview?side=Short')).body.overview.trades as number;
    await page.getByTestId('filter-more').click();
    await page.getByTestId('filter-side').click();
    await page.getByRole('option', { name: 'Short' }).click();
    await page.keyboard.press('Escape');
    await eventually(() => new URL(page.url()).searchParams.getAll('side')).toEqual(['Short']);
    await eventually(() => tradesIn(page)).toBe(shorts);
    await page.getByTestId('active-filter-side').waitFor();

    // Then the last 90 days of May 2025 only: a custom range typed in the URL works as well as one picked.
    await page.goto(`/reports?side=Short&range=custom&from=2025-05-01&to=2025-05-31`);
    const mayShorts = (await api.get('/api/reports/overview?side=Short&range=custom&from=2025-05-01&to=2025-05-31')).body.overview.trades as number;
    await eventually(() => tradesIn(page)).toBe(mayShorts);
    expect(await summary(page).innerText()).toContain('May 1, 2025 to May 31, 2025; side Short');

    // Back: shorts of all time again; back again: everything; forward twice: May's shorts.
    await page.goBack();
    await eventually(() => tradesIn(page)).toBe(shorts);
    await page.goBack();
    await eventually(() => tradesIn(page)).toBe(336);
    expect(new URL(page.url()).search).toBe('');
    await page.goForward();
    await page.goForward();
    await eventually(() => tradesIn(page)).toBe(mayShorts);

    // A breakdown by hour: each row links to its trades in the Trade Log, with the whole filter.
    await page.getByTestId('report-tab-breakdowns').click();
    await waitForPath(page, '/reports/breakdowns/instrument');
    await page.getByTestId('breakdown-link-hour').click();
    await waitForPath(page, '/reports/breakdowns/hour');
    const firstRow = page.getByTestId('breakdown-table-row').first();
    await firstRow.waitFor();
    const rowTrades = Number(await firstRow.locator('td').first().innerText());
    const hour = (await api.get('/api/reports/breakdown?by=hour&side=Short&range=custom&from=2025-05-01&to=2025-05-31')).body.breakdown.rows[0];
    expect(rowTrades).toBe(hour.trades);
    await firstRow.getByRole('link').click();
    await waitForPath(page, '/trade-log');
    // The Reports' every account: the selector shows All Trades, and the address keeps the rest of the filter.
    await eventually(() => new URL(page.url()).searchParams.getAll('account')).toEqual([]);
    const params = new URL(page.url()).searchParams;
    expect({ side: params.getAll('side'), hour: params.getAll('hour'), from: params.get('from'), to: params.get('to') }).toEqual({
      side: ['Short'],
      hour: [hour.key],
      from: '2025-05-01',
      to: '2025-05-31',
    });
    await page.getByTestId('trade-log-filter').waitFor();
    await eventually(async () => (await page.getByTestId('trades-total').innerText()).replace(/\D/g, '')).toBe(String(hour.trades));
    expect(await page.getByTestId('trade-log-filter').innerText()).toContain(`May 1, 2025 to May 31, 2025; side Short; entry`);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'reports-trade-log-filtered-desktop-dark.png'), fullPage: true });
    // Clear: the whole log again.
    await page.getByTestId('trade-log-filter-clear').click();
    await page.getByTestId('trade-log-filter').waitFor({ state: 'detached' });
    await eventually(async () => (await page.getByTestId('trades-total').innerText()).replace(/\D/g, '')).toBe('336');
  });
});

describe('Compare and CSV', () => {
  it('compares longs with shorts from a preset and exports a breakdown as CSV', async () => {
    const s = await suite.scenario({ width: 1440, height: 900 });
    const api = await traderWithTrades(s);
    const { page } = s;
    await page.goto('/reports/compare');
    await page.getByTestId('compare-preset-sides').click();
    await eventually(() => new URL(page.url()).searchParams.getAll('b.side')).toEqual(['Short']);
    expect(new URL(page.url()).searchParams.getAll('side')).toEqual(['Long']);
    const longs = (await api.get('/api/reports/overview?side=Long')).body.overview;
    const shorts = (await api.get('/api/reports/overview?side=Short')).body.overview;
    const tradesRow = page.getByTestId('compare-table-row').filter({ has: page.getByRole('rowheader', { name: 'Trades', exact: true }) });
    await eventually(async () => (await tradesRow.locator('td').allInnerTexts()).map((t) => t.trim())).toEqual([
      String(longs.trades),
      String(shorts.trades),
      `${shorts.trades - longs.trades > 0 ? '+' : shorts.trades - longs.trades < 0 ? '-' : ''}${Math.abs(shorts.trades - longs.trades)}`,
    ]);

    await page.goto('/reports/breakdowns/instrument');
    await page.getByTestId('breakdown-table-row').first().waitFor();
    const downloading = page.waitForEvent('download');
    await page.getByTestId('breakdown-table-csv').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^edgebook-by-instrument-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = fs.readFileSync(await download.path(), 'utf8').replace(/^\ufeff/, '');
    const lines = text.trim().split(/\r?\n/);
    expect(lines[0]).toBe('Instrument,Trades,Win rate,Net P&L,Average,Profit factor,Expectancy,Share of trades');
    const rows = (await api.get('/api/reports/breakdown?by=instrument')).body.breakdown.rows as Array<{ label: string; trades: number; netCents: number }>;
    expect(lines.length - 1).toBe(rows.length);
    const mnq = rows.find((r) => r.label === 'MNQ')!;
    const line = lines.find((l) => l.startsWith('MNQ,'))!;
    expect(line.split(',')[1]).toBe(String(mnq.trades));
    expect(Math.round(Number(line.split(',')[3]) * 100)).toBe(mnq.netCents);
  });
});

const VIEWS = ['', '/equity', '/breakdowns/hour', '/heatmap', '/calendar?year=2025', '/distributions', '/compare'] as const;

describe('every report as a trader sees it', () => {
  it.each(SCREEN_PAIRS)('fits %s width, reads in its theme, and axe finds nothing serious', async ({ name, width, height, theme }) => {
    const s = await suite.scenario({ width, height, colorScheme: theme });
    await useAppTheme(s.context, theme);
    await traderWithTrades(s);
    const { page } = s;
    for (const view of VIEWS) {
      await page.goto(`/reports${view}`);
      await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
      await page.locator('[data-testid^="report-"][aria-busy], [aria-label="Loading report"]').first().waitFor({ state: 'detached' }).catch(() => undefined);
      await page.locator('section[data-money]').first().waitFor();
      await eventually(() => page.locator('[aria-label="Loading report"]').count()).toBe(0);
      const file = view.replace(/[/?=]+/g, '-').replace(/^-|-$/g, '') || 'overview';
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `reports-${file}-${name}-${theme}.png`), fullPage: true });
      // Nothing wider than the screen: tables and the heatmap scroll inside their cards.
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${view} at ${width}`).toBeLessThanOrEqual(width);
      const violations = await seriousA11yViolations(page);
      expect(violations, `${view}: ${violations.join('\n')}`).toEqual([]);
    }
  });
});
