import { describe, expect, it } from 'vitest';
import { createTrade } from '../tests/api/trades-support';
import { SearchPalette } from './pages/search-palette';
import { signedInTrader } from './pages/trade-log';
import { eventually, useE2ESuite } from './support/scenario';

/**
 * Saved report views and Compare's extra sets in Chromium: a filter saved by name is listed under Reports in the
 * sidebar and found in the search palette, and opening it brings the Reports page back with that filter; Compare takes
 * a third set with its own column and a curve in the legend.
 */
const suite = useE2ESuite(() => ({ env: { AUTH_RATE_LIMIT: '1000' } }));

describe('saved views', () => {
  it('saves the filter by name, lists it in the sidebar and the palette, and opens it with its filter', async () => {
    const s = await suite.scenario({ width: 1440, height: 900 });
    const api = await signedInTrader(suite.e2e.app, s.context, 'views');
    const trades: Array<[string, string, number]> = [
      ['NQ', 'Long', 250],
      ['NQ', 'Short', -80],
      ['ES', 'Long', 120],
      ['ES', 'Short', 60],
      ['NQ', 'Long', 40],
    ];
    for (const [symbol, side, pnl] of trades) await createTrade(api, { date: '2026-03-03', symbol, side, pnl });
    const { page } = s;
    const summary = page.getByTestId('report-summary');

    await page.goto('/reports?symbol=NQ');
    await eventually(async () => (await summary.innerText()).endsWith('· 3 trades')).toBe(true);
    await page.getByTestId('save-view-open').click();
    await page.getByTestId('save-view-name').fill('NQ only');
    await page.getByTestId('save-view-submit').click();
    const entry = page.getByTestId('nav-saved-view').filter({ hasText: 'NQ only' });
    await entry.waitFor();

    // From the whole set, the sidebar's entry brings the saved filter back.
    await page.goto('/reports');
    await eventually(async () => (await summary.innerText()).endsWith('· 5 trades')).toBe(true);
    await entry.click();
    await eventually(() => new URL(page.url()).searchParams.getAll('symbol')).toEqual(['NQ']);
    expect(new URL(page.url()).pathname).toBe('/reports');
    await eventually(async () => (await summary.innerText()).endsWith('· 3 trades')).toBe(true);
    expect(await entry.getAttribute('aria-current')).toBe('page');

    // The search palette finds it by name and opens it the same way.
    await page.goto('/trade-log');
    await page.getByRole('heading', { name: 'Trade Log', level: 1 }).waitFor();
    const palette = new SearchPalette(page);
    await palette.openWithShortcut();
    await palette.search('nq on');
    await page.getByTestId('search-saved-view').filter({ hasText: 'NQ only' }).click();
    await eventually(() => `${new URL(page.url()).pathname}${new URL(page.url()).search}`).toBe('/reports?symbol=NQ');

    // Compare: a third set, its own column, and the three curves named in the legend.
    await page.goto('/reports/compare?side=Long&b.side=Short');
    await page.getByTestId('compare-add-set').click();
    await eventually(() => new URL(page.url()).searchParams.get('sets')).toBe('3');
    await page.getByTestId('compare-filters-c').waitFor();
    const overview = (await api.get('/api/reports/overview')).body.overview as { trades: number };
    const tradesRow = page.getByTestId('compare-table-row').filter({ has: page.getByRole('rowheader', { name: 'Trades', exact: true }) });
    await eventually(async () => (await tradesRow.locator('td').allInnerTexts()).map((t) => t.trim())).toEqual(['3', '2', String(overview.trades)]);
    const legend = page.getByTestId('compare-equity').locator('.mantine-ChartLegend-legendItemName');
    await eventually(() => legend.allInnerTexts()).toEqual(['A', 'B', 'C']);
    await page.getByTestId('compare-remove-b').click();
    await eventually(() => new URL(page.url()).searchParams.get('sets')).toBe(null);
  });
});
