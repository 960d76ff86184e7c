import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../tests/support/app';
import type { CalendarReport, EquityReport, HeatmapReport, OverviewReport } from '../src/contract/reports';
import { describeWithoutRisk, formatCompactR, formatR } from '../src/domain/risk/format-r';
import { brokerFile, importFile } from '../tests/api/imports-support';
import { createTrade } from '../tests/api/trades-support';
import { signedInTrader } from './pages/trade-log';
import { seriousA11yViolations } from './support/a11y';
import { eventually, SCREEN_PAIRS, useAppTheme, useE2ESuite, waitForPath, type Scenario } from './support/scenario';

/**
 * The Reports page in Chromium: the filter bar kept in the URL with back and forward, a drill-down from a
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
    // The address changes before the page does (the router keeps the last page on screen while the next one renders):
    // the hour's card, not the instrument's still on screen, is the one read.
    const card = page.getByRole('region', { name: 'By hour of entry' });
    const firstRow = card.getByTestId('breakdown-table-row').first();
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
  it('compares longs with shorts from a preset, loads a saved view into a set, shows breakdowns side by side and exports a breakdown as CSV', async () => {
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

    // A saved view loaded into B, then both sets by instrument side by side: each set's cells are its own breakdown's.
    expect((await api.post('/api/saved-views', { name: 'Micros', filter: 'symbol=MNQ&symbol=MES' })).status).toBe(201);
    await page.reload();
    await page.getByRole('combobox', { name: 'Load saved view into B' }).click();
    await page.getByRole('option', { name: 'Micros' }).click();
    await eventually(() => new URL(page.url()).searchParams.getAll('b.symbol')).toEqual(['MNQ', 'MES']);
    expect(new URL(page.url()).searchParams.getAll('b.side')).toEqual([]);
    await page.getByRole('combobox', { name: 'Breakdown by' }).click();
    await page.getByRole('option', { name: 'Instrument' }).click();
    await eventually(() => new URL(page.url()).searchParams.get('by')).toBe('instrument');
    const micros = (await api.get('/api/reports/breakdown?by=instrument&symbol=MNQ&symbol=MES')).body.breakdown.rows as Array<{
      label: string;
      trades: number;
    }>;
    const mnqRow = page.getByTestId('compare-breakdown-table-row').filter({ has: page.getByRole('rowheader', { name: 'MNQ', exact: true }) });
    // Columns per set: net P&L, trades, win rate; B's trades are the fifth cell.
    await eventually(async () => (await mnqRow.locator('td').nth(4).innerText()).trim()).toBe(String(micros.find((r) => r.label === 'MNQ')!.trades));

    await page.goto('/reports/breakdowns/instrument');
    await page.getByTestId('breakdown-table-row').first().waitFor();
    const downloading = page.waitForEvent('download');
    await page.getByTestId('breakdown-table-csv').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^edgebook-by-instrument-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = fs.readFileSync(await download.path(), 'utf8').replace(/^\ufeff/, '');
    const lines = text.trim().split(/\r?\n/);
    expect(lines[0]).toBe('Instrument,Trades,Win rate,Net P&L,Average,Profit factor,Expectancy,Share of trades');
    const rows = (await api.get('/api/reports/breakdown?by=instrument')).body.breakdown.rows as Array<{
      label: string;
      trades: number;
      netCents: number;
    }>;
    expect(lines.length - 1).toBe(rows.length);
    const mnq = rows.find((r) => r.label === 'MNQ')!;
    const line = lines.find((l) => l.startsWith('MNQ,'))!;
    expect(line.split(',')[1]).toBe(String(mnq.trades));
    expect(Math.round(Number(line.split(',')[3]) * 100)).toBe(mnq.netCents);
  });
});

describe('the Reports page in R', () => {
  it.each(SCREEN_PAIRS)(
    'flips to R at %s width: Equity, Heatmap, Calendar and Compare in R, the trades without a plan counted apart',
    async ({ name, width, height, theme }) => {
      const s = await suite.scenario({ width, height, colorScheme: theme });
      await useAppTheme(s.context, theme);
      const api = await traderWithTrades(s);
      // $50 a trade on MNQ: the MNQ trades have an R; MES, MGC and MBT have no planned risk.
      expect((await api.put('/api/risk-defaults', { root: 'MNQ', risk_amount: 50 })).status).toBe(200);
      const equity = (await api.get('/api/reports/equity')).body.r as EquityReport['r'];
      const heatmap = (await api.get('/api/reports/heatmap')).body.heatmap as HeatmapReport['heatmap'];
      const calendar = (await api.get('/api/reports/calendar?year=2025')).body.calendar as CalendarReport['calendar'];
      const longs = (await api.get('/api/reports/overview?side=Long')).body.r as OverviewReport['r'];
      const shorts = (await api.get('/api/reports/overview?side=Short')).body.r as OverviewReport['r'];
      expect(equity.tradesWithRisk).toBeGreaterThan(100);
      expect(equity.tradesWithoutRisk).toBeGreaterThan(0);
      const { page } = s;
      const shoot = async (view: string) => {
        await eventually(() => page.locator('[aria-label="Loading report"]').count()).toBe(0);
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, `reports-r-${view}-${name}-${theme}.png`), fullPage: true });
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${view} at ${width}`).toBeLessThanOrEqual(width);
        // The pointer off the page: axe reads the page at rest, not a button left hovered by the last click.
        await page.mouse.move(0, 0);
        const violations = await seriousA11yViolations(page);
        expect(violations, `${view}: ${violations.join('\n')}`).toEqual([]);
      };

      // Equity: the switch on its card turns the page to R (a preference every tab reads).
      await page.goto('/reports/equity');
      await page.getByTestId('report-equity').getByTestId('figure-unit').getByText('R', { exact: true }).click();
      await eventually(() => page.getByTestId('equity-r-note').innerText()).toContain(describeWithoutRisk(equity.tradesWithoutRisk));
      const lastRow = page.getByTestId('equity-table-row').last();
      const last = equity.byTrade.at(-1)!;
      expect((await lastRow.locator('th, td').allTextContents()).map((t) => t.trim())).toEqual([
        String(last.index),
        last.tradeDate,
        formatR(last.equityR),
        formatR(last.drawdownR),
      ]);
      const downloading = page.waitForEvent('download');
      await page.getByTestId('equity-csv').click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^edgebook-equity-by-trade-in-r-\d{4}-\d{2}-\d{2}\.csv$/);
      const lines = fs
        .readFileSync(await download.path(), 'utf8')
        .replace(/^\ufeff/, '')
        .trim()
        .split(/\r?\n/);
      expect(lines[0]).toBe('Trade,Trading day,Cumulative R,Drawdown in R');
      expect(lines.length - 1).toBe(equity.byTrade.length);
      expect(lines.at(-1)).toBe(`${last.index},${last.tradeDate},${last.equityR},${last.drawdownR}`);
      await shoot('equity');

      // Heatmap: every cell's total R, in the order drawn; the trades without a plan said under it.
      await page.getByTestId('report-tab-heatmap').click();
      await waitForPath(page, '/reports/heatmap');
      await eventually(() => page.getByTestId('heatmap-r-note').innerText()).toContain(describeWithoutRisk(heatmap.tradesWithoutRisk));
      const drawn = heatmap.weekdays.flatMap((d) =>
        heatmap.hours.map((h) => heatmap.cells.find((c) => c.weekday === d && c.hour === h)).filter((c) => c !== undefined),
      );
      const cellTexts = await page
        .getByTestId('heatmap-cell')
        .evaluateAll((cells) => cells.map((c) => c.querySelector('a > span')?.textContent?.trim()));
      expect(cellTexts).toEqual(drawn.map((c) => (c.r.totalR === null ? '—' : formatCompactR(c.r.totalR))));
      expect(await page.getByTestId('heatmap-measure').innerText()).toContain('Total R');
      await shoot('heatmap');

      // Year calendar: the year's R, and a day's R in its label.
      await page.goto('/reports/calendar?year=2025');
      await eventually(() => page.getByTestId('calendar-total-r').innerText()).toContain(formatR(calendar.r.totalR!));
      const day = calendar.days.find((d) => d.r.totalR !== null)!;
      const [month, dayOfMonth] = [Number(day.tradeDate.slice(5, 7)), Number(day.tradeDate.slice(8))];
      const link = page
        .getByTestId('calendar-month')
        .nth(month - 1)
        .getByTestId('calendar-day')
        .getByText(String(dayOfMonth), { exact: true });
      expect(await link.getAttribute('aria-label')).toContain(`total ${formatR(day.r.totalR!)}`);
      expect(await page.getByTestId('calendar-r-note').innerText()).toContain(describeWithoutRisk(calendar.r.tradesWithoutRisk));
      await shoot('calendar');

      // Compare: longs against shorts, Total R and Expectancy of each side and B minus A in R.
      await page.goto('/reports/compare');
      await page.getByTestId('compare-preset-sides').click();
      await eventually(() => new URL(page.url()).searchParams.getAll('b.side')).toEqual(['Short']);
      const row = (label: string) => page.getByTestId('compare-table-row').filter({ has: page.getByRole('rowheader', { name: label, exact: true }) });
      const difference = (a: number, b: number) => formatR(Math.round(b * 100 - a * 100) / 100);
      await eventually(async () => (await row('Total R').locator('td').allInnerTexts()).map((t) => t.trim())).toEqual([
        formatR(longs.totalR!),
        formatR(shorts.totalR!),
        difference(longs.totalR!, shorts.totalR!),
      ]);
      expect((await row('Expectancy').locator('td').allInnerTexts()).map((t) => t.trim())).toEqual([
        formatR(longs.expectancyR!),
        formatR(shorts.expectancyR!),
        difference(longs.expectancyR!, shorts.expectancyR!),
      ]);
      expect((await row('Trades without a planned risk').locator('td').first().innerText()).trim()).toBe(String(longs.tradesWithoutRisk));
      await shoot('compare');
    },
  );
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
      await page
        .locator('[data-testid^="report-"][aria-busy], [aria-label="Loading report"]')
        .first()
        .waitFor({ state: 'detached' })
        .catch(() => undefined);
      await page.locator('section[data-money]').first().waitFor();
      await eventually(() => page.locator('[aria-label="Loading report"]').count()).toBe(0);
      const file = view.replace(/[/?=]+/g, '-').replace(/^-|-$/g, '') || 'overview';
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `reports-${file}-${name}-${theme}.png`), fullPage: true });
      // Nothing wider than the screen: tables and the heatmap scroll inside their cards.
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${view} at ${width}`).toBeLessThanOrEqual(width);
      // The pointer off the page: axe reads the page at rest, not a button left hovered by the last click.
      await page.mouse.move(0, 0);
      const violations = await seriousA11yViolations(page);
      expect(violations, `${view}: ${violations.join('\n')}`).toEqual([]);
    }
  });
});

describe('the report tabs on a phone', () => {
  it('show a cue at each end of the row that hides tabs, follow its scrolling, and show none on a desktop', async () => {
    const s = await suite.scenario({ width: 390, height: 844 });
    await signedInTrader(suite.e2e.app, s.context, 'reports-tabs');
    const { page } = s;
    const row = page.getByTestId('report-tabs-row');
    const list = row.getByRole('tablist', { name: 'Reports' });
    await page.goto('/reports');
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    // The Overview first: more tabs off the right end only, and the arrow drawn there.
    await eventually(() => row.getAttribute('data-more-end')).toBe('true');
    expect(await row.getAttribute('data-more-start')).toBeNull();
    expect(await row.evaluate((el) => getComputedStyle(el, '::after').content)).toBe('"›"');
    // The last tab, opened by its address, is brought into view: more off the left end now.
    await page.goto('/reports/compare');
    await eventually(() => row.getAttribute('data-more-start')).toBe('true');
    expect(await row.getAttribute('data-more-end')).toBeNull();
    const [box, tab] = await Promise.all([list.boundingBox(), page.getByTestId('report-tab-compare').boundingBox()]);
    expect(tab!.x + tab!.width).toBeLessThanOrEqual(box!.x + box!.width + 1);
    // Scrolled back by hand: the cue follows.
    await list.evaluate((el) => el.scrollTo({ left: 0 }));
    await eventually(() => row.getAttribute('data-more-start')).toBeNull();
    expect(await row.getAttribute('data-more-end')).toBe('true');

    await page.setViewportSize({ width: 1440, height: 900 });
    await eventually(() => row.getAttribute('data-more-end')).toBeNull();
    expect(await row.getAttribute('data-more-start')).toBeNull();
  });
});
