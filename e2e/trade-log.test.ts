import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { getTodayInZone } from '../src/domain/dates';
import { formatR } from '../src/domain/risk/format-r';
import type { ApiClient } from '../tests/support/app';
import { createAccount, listAll } from '../tests/api/trades-support';
import { ReflectPage } from './pages/reflect';
import { SearchPalette } from './pages/search-palette';
import { TradeDetailsPage } from './pages/trade-details';
import { signedInTrader, TradeLogPage } from './pages/trade-log';
import type { E2E } from './support/browser';
import { eventually, SCREEN_PAIRS, useAppTheme, useE2ESuite, waitForAnimations } from './support/scenario';

/**
 * The Trade Log's trades as a trader meets them in Chromium: adding with the result/pnl couplings and commission, editing (dialog and inline), optimistic delete, select
 * and delete several, search, the maximized virtualized list, card view on phones, the connection banner.
 * One server and browser for the file; each test signs up its own trader.
 */

const suite = useE2ESuite();
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-trade-log-'));

interface Trader {
  client: ApiClient;
  context: BrowserContext;
  page: Page;
  log: TradeLogPage;
}

async function trader(options?: Parameters<E2E['newContext']>[0]): Promise<Trader> {
  const s = await suite.scenario(options);
  // The app's own theme (dark unless chosen), not only the browser's preference.
  if (options?.colorScheme) await useAppTheme(s.context, options.colorScheme);
  const client = await signedInTrader(suite.e2e.app, s.context);
  return { client, context: s.context, page: s.page, log: new TradeLogPage(s.page) };
}

async function seedTrade(client: ApiClient, input: Record<string, unknown>) {
  const res = await client.post('/api/trades', { period: 'AM', trade_type: 'A/A+', ...input });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; pnl: string; status: string };
}

async function storedTrades(client: ApiClient) {
  const res = await client.get('/api/trades?limit=500');
  expect(res.status).toBe(200);
  return res.body.trades as Array<{
    id: string;
    symbol: string;
    pnl: string;
    commission: string;
    status: string;
    tags: string[];
    notes: string;
    date: string;
  }>;
}

describe('adding trades', () => {
  it('saves a Loss typed with a positive pnl as negative, and the net of commission decides the result', async () => {
    const { client, log, page } = await trader();
    await log.goto();
    await log.tradesPanel.getByTestId('trades-empty').waitFor();

    await log.openAddTrade();
    const dialog = log.addDialog;
    // NQ, AM, A/A+, Win, 0, 0; the day is derived and read-only.
    expect(await dialog.getByTestId('trade-instrument').inputValue()).toBe('NQ');
    expect(await dialog.getByTestId('trade-session').inputValue()).toBe('AM');
    expect(await dialog.getByTestId('trade-type').inputValue()).toBe('A/A+');
    expect(await log.pnlInput(dialog).inputValue()).toBe('0');
    expect(await dialog.getByTestId('trade-commission').inputValue()).toBe('0');
    expect(await dialog.getByTestId('trade-day').getAttribute('readonly')).not.toBeNull();
    expect(await dialog.getByTestId('trade-day').inputValue()).toMatch(/^(Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day$/);

    // Choosing Loss, then typing a positive pnl, makes it negative as it is typed.
    await log.chooseResult(dialog, 'Loss');
    await log.pnlInput(dialog).fill('120');
    expect(await log.pnlInput(dialog).inputValue()).toBe('-120');
    await dialog.getByTestId('trade-commission').fill('-5');
    await dialog.getByTestId('trade-instrument').fill('ES');
    await dialog.getByTestId('tag-input').fill('Revenge');
    await dialog.getByTestId('tag-add').click();
    await dialog.getByTestId('tag-add').click();
    await dialog.getByText('Please enter a tag name').waitFor();
    await dialog.getByTestId('tag-input').fill('revenge');
    await dialog.getByTestId('tag-add').click();
    await dialog.getByText('Tag "revenge" already exists').waitFor();
    await dialog.getByTestId('tag-input').fill('');
    expect(await dialog.getByTestId('trade-net-preview').innerText()).toContain('Net PnL -$125.00 after $5.00 commission');
    await dialog.getByRole('button', { name: 'Add Trade' }).click();
    await log.toast('Trade added successfully').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    // Stored as the API's net pnl with the commission absolute, shown in the table the same way.
    await log.row('ES').waitFor();
    expect(await log.row('ES').getByTestId('trade-pnl').innerText()).toBe('-$125.00');
    expect(await log.row('ES').getByTestId('trade-result').innerText()).toBe('Loss');
    const [saved] = await storedTrades(client);
    expect(saved).toMatchObject({ symbol: 'ES', pnl: '-125.00', commission: '5.00', status: 'Loss', tags: ['Revenge'] });

    // A Win of $3 that pays $5 commission nets -$2: the saved result is Loss, whatever was chosen.
    await log.openAddTrade();
    await dialog.getByTestId('trade-instrument').fill('MNQ');
    await log.pnlInput(dialog).fill('3');
    await dialog.getByTestId('trade-commission').fill('5');
    expect(await dialog.getByTestId('trade-net-preview').innerText()).toContain('saved as Loss');
    await dialog.getByRole('button', { name: 'Add Trade' }).click();
    await log.row('MNQ').waitFor();
    expect(await log.row('MNQ').getByTestId('trade-pnl').innerText()).toBe('-$2.00');
    expect(await log.row('MNQ').getByTestId('trade-result').innerText()).toBe('Loss');

    // Choosing BE sets the pnl to 0; a non-zero pnl typed under BE goes back to 0.
    await log.openAddTrade();
    await log.pnlInput(dialog).fill('40');
    await log.chooseResult(dialog, 'BE');
    expect(await log.pnlInput(dialog).inputValue()).toBe('0');
    await log.pnlInput(dialog).fill('7');
    expect(await log.pnlInput(dialog).inputValue()).toBe('0');
    // Win with a negative pnl makes it positive.
    await log.chooseResult(dialog, 'Loss');
    await log.pnlInput(dialog).fill('-60');
    await log.chooseResult(dialog, 'Win');
    expect(await log.pnlInput(dialog).inputValue()).toBe('60');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Statistics follow the selected account's trades: 2 losses, no win.
    expect(await log.statsPanel.getByTestId('stat-losses').innerText()).toBe('2');
    expect(await log.statsPanel.getByTestId('stat-wins').innerText()).toBe('0');
    expect(await log.statsPanel.getByTestId('stat-net-pnl').innerText()).toBe('-$127.00');
    expect(await page.getByTestId('trade-account-cell').first().innerText()).toBe('Unassigned');
  });

  it('refuses a trade without a session with the spec message', async () => {
    const { client, log } = await trader();
    await log.goto();
    await log.openAddTrade();
    await log.addDialog.locator('button[aria-label="Clear session"]').click();
    await log.addDialog.getByRole('button', { name: 'Add Trade' }).click();
    await log.toast('Please fill in all required fields.').waitFor();
    expect(await log.addDialog.isVisible()).toBe(true);
    // The field itself says what is missing, and the required fields carry the asterisk.
    expect(await log.addDialog.getByText('Session is required').isVisible()).toBe(true);
    expect(await log.addDialog.locator('.mantine-InputWrapper-required').count()).toBeGreaterThanOrEqual(3);
    expect(await storedTrades(client)).toEqual([]);
  });

  it("refuses letters in PnL and commission as they are typed ('abc' is no amount)", async () => {
    const { log } = await trader();
    await log.goto();
    await log.openAddTrade();
    const pnl = log.pnlInput(log.addDialog);
    await pnl.fill('12.5');
    await pnl.pressSequentially('abc');
    expect(await pnl.inputValue()).toBe('12.5');
    await pnl.fill('abc');
    expect(await pnl.inputValue()).toBe('12.5');
    const commission = log.addDialog.getByTestId('trade-commission');
    await commission.fill('x');
    expect(await commission.inputValue()).toBe('0');
    expect(await log.addDialog.getByTestId('trade-net-preview').innerText()).toContain('$12.50');
  });

  it('opens Add New Trade when navigation asks for it (search palette "Add Trade")', async () => {
    const { log, page } = await trader();
    await page.goto('/');
    await page.getByTestId('sidebar').waitFor();
    const palette = new SearchPalette(page);
    await palette.openWithShortcut();
    await palette.search('Add Trade');
    await palette.entry('add-trade').click();
    await page.waitForURL((url) => url.pathname === '/trade-log');
    await log.addDialog.waitFor();
  });
});

describe('manage types', () => {
  it('keeps every × clear of the scrollbar in a long list', async () => {
    const { client, log, page } = await trader();
    for (let i = 1; i <= 12; i++)
      expect((await client.post('/api/trade-preferences', { type: 'trade_type', value: `Setup number ${i}` })).status).toBe(201);
    await log.goto();
    await log.openAddTrade();
    await log.addDialog.getByTestId('manage-trade_type').click();
    const popover = page.getByTestId('manage-trade_type-popover');
    const remove = popover.getByRole('button', { name: 'Remove Setup number 1', exact: true });
    await remove.waitFor();
    const scrollbar = popover.locator('.mantine-ScrollArea-scrollbar[data-orientation="vertical"]');
    await popover.locator('.mantine-ScrollArea-viewport').hover();
    await scrollbar.waitFor();
    const bar = (await scrollbar.boundingBox())!;
    for (const button of await popover.getByRole('button', { name: /^Remove / }).all()) {
      const box = await button.boundingBox();
      if (box && box.height > 0) expect(box.x + box.width).toBeLessThanOrEqual(bar.x + 0.5);
    }
  });
});

describe('analysis charts', () => {
  it('counts trades on whole-number axes (0.75 and 2.25)', async () => {
    const { client, log, page } = await trader();
    const today = new Date();
    const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    for (const pnl of [40, -20, 15]) await seedTrade(client, { date: day, symbol: 'NQ', pnl });
    await log.goto();
    await page.getByTestId('results-by-weekday').scrollIntoViewIfNeeded();
    const ticks = page.getByTestId('results-by-weekday').locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-label');
    await eventually(() => ticks.count()).toBeGreaterThan(1);
    const values = (await ticks.allTextContents()).map(Number);
    expect(
      values.every((v) => Number.isInteger(v)),
      values.join(', '),
    ).toBe(true);
  });

  it("labels weeks with their year once they span two, and gives screen readers each chart's figures as a table", async () => {
    const { client, log, page } = await trader();
    // Tuesday Dec 30, 2025 is in the week of Monday Dec 29; Tuesday Jan 6, 2026 in the week of Jan 5.
    await seedTrade(client, { date: '2025-12-30', symbol: 'NQ', pnl: 40 });
    await seedTrade(client, { date: '2026-01-06', symbol: 'NQ', pnl: -20 });
    await seedTrade(client, { date: '2026-01-06', symbol: 'ES', pnl: 0 });
    await log.goto();
    const weeks = page.getByTestId('results-by-week');
    await weeks.scrollIntoViewIfNeeded();
    const ticks = weeks.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-label');
    await eventually(() => ticks.allTextContents()).toEqual(["Dec 29 '25", "Jan 5 '26"]);
    // The drawing is hidden from screen readers and out of the tab order; its table says the same.
    expect(await weeks.locator('[aria-hidden="true"] svg').count()).toBe(1);
    expect(await weeks.locator('svg[tabindex]').count()).toBe(0);
    const rows = (table: Locator) => table.locator('tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    expect(await rows(weeks.getByTestId('chart-table'))).toEqual([
      ['Week of', 'Wins', 'Losses', 'BE'],
      ['Dec 29, 2025', '1', '0', '0'],
      ['Jan 5, 2026', '0', '1', '1'],
    ]);
    const weekdays = await rows(page.getByTestId('results-by-weekday').getByTestId('chart-table'));
    expect(weekdays.slice(1).map((r) => r[0])).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']);
    expect(weekdays[2]).toEqual(['Tuesday', '1', '1', '1']);
    expect(await rows(log.statsPanel.getByTestId('chart-table').first())).toEqual([
      ['Result', 'Trades'],
      ['Wins', '1'],
      ['Losses', '1'],
    ]);
  });
});

describe('editing and deleting', () => {
  it('edits a trade in the Edit Trade dialog and inline in the maximized table', async () => {
    const { client, log, page } = await trader();
    // The API's pnl is net of commission: $250 net after $10 is $260 before commission.
    await seedTrade(client, { date: '2026-03-09', symbol: 'NQ', pnl: 250, commission: 10, notes: 'first' });
    await log.goto();
    await log.row('NQ').waitFor();
    expect(await log.row('NQ').getByTestId('trade-pnl').innerText()).toBe('$250.00');

    await log.row('NQ').getByTestId('trade-edit').click();
    const dialog = log.editDialog;
    await dialog.waitFor();
    // The Edit dialog has no Account and no Commission; its pnl is before commission.
    expect(await dialog.getByTestId('trade-account').count()).toBe(0);
    expect(await dialog.getByTestId('trade-commission').count()).toBe(0);
    expect(await log.pnlInput(dialog).inputValue()).toBe('260');
    await dialog.getByTestId('trade-instrument').fill('ES');
    await log.chooseResult(dialog, 'Loss');
    expect(await log.pnlInput(dialog).inputValue()).toBe('-260');
    await dialog.getByTestId('trade-notes').fill('changed my mind');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await log.toast('Trade updated successfully').waitFor();
    await log.row('ES').waitFor();
    expect(await log.row('ES').getByTestId('trade-pnl').innerText()).toBe('-$270.00');
    expect(await log.row('ES').getByTestId('trade-result').innerText()).toBe('Loss');
    const [stored] = await storedTrades(client);
    expect(stored).toMatchObject({ symbol: 'ES', pnl: '-270.00', commission: '10.00', status: 'Loss', notes: 'changed my mind' });

    // Inline editing in the maximized table, with Done.
    await page.getByTestId('toggle-maximize').click();
    await log.statsPanel.waitFor({ state: 'detached' });
    await log.row('ES').getByTestId('trade-edit').click();
    const inline = page.getByTestId('inline-edit-row');
    await inline.getByLabel('Instrument').fill('YM');
    await inline.getByLabel('PnL (before commission)').fill('75');
    await inline.getByTestId('inline-done').click();
    await log.toast('Trade updated successfully').waitFor();
    await log.row('YM').waitFor();
    // Still Loss: a positive pnl typed under Loss turns negative.
    expect(await log.row('YM').getByTestId('trade-pnl').innerText()).toBe('-$85.00');
    await page.getByTestId('toggle-maximize').click();
    await log.statsPanel.waitFor();
  });

  it('removes a deleted row at once with Undo in its toast, deletes for good when the toast leaves, and rolls back a refused delete', async () => {
    const { client, log, page } = await trader();
    const account = await createAccount(client, 'Main', { is_default: true });
    await seedTrade(client, { date: '2026-03-10', symbol: 'ES', pnl: 50, account_id: account.id });
    const nq = await seedTrade(client, {
      date: '2026-03-09',
      symbol: 'NQ',
      pnl: -40,
      account_id: account.id,
      tags: ['fomo', 'open drive'],
      notes: 'Chased the open',
      link: 'https://example.com/chart',
    });
    const before = (await client.get(`/api/trades/${nq.id}`)).body;
    await log.goto();
    await log.row('NQ').waitFor();
    const deletes: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'DELETE') deletes.push(new URL(request.url()).pathname);
    });

    const figures = async () => [
      await log.statsPanel.getByTestId('stat-net-pnl').innerText(),
      await log.statsPanel.getByTestId('stat-trades').innerText(),
    ];
    await eventually(figures).toEqual(['$10.00', '2']);

    // The row goes at once; nothing is sent while the toast offers Undo.
    await log.row('NQ').getByTestId('trade-delete').click();
    await log.row('NQ').waitFor({ state: 'detached' });
    expect(await log.total.innerText()).toBe('1 trade');
    const toast = log.toast('Trade deleted successfully');
    // The statistics agree with the list while Undo is offered, and come back with the trade.
    await eventually(figures).toEqual(['$50.00', '1']);
    await toast.getByRole('button', { name: 'Undo' }).click();
    await log.row('NQ').waitFor();
    await eventually(() => log.total.innerText()).toBe('2 trades');
    await eventually(figures).toEqual(['$10.00', '2']);
    await toast.waitFor({ state: 'detached' });
    expect(deletes).toEqual([]);
    // The same trade, not a copy: id, tags, notes, link and account as before.
    expect((await client.get(`/api/trades/${nq.id}`)).body).toEqual(before);

    // Deleted again and left alone: the DELETE is sent when the toast leaves (closed here rather than waited out).
    await log.row('NQ').getByTestId('trade-delete').click();
    await log.row('NQ').waitFor({ state: 'detached' });
    await log.toast('Trade deleted successfully').getByRole('button', { name: 'Close notification' }).click();
    await eventually(() => deletes).toEqual([`/api/trades/${nq.id}`]);
    await eventually(async () => (await storedTrades(client)).map((t) => t.symbol)).toEqual(['ES']);
    await eventually(() => log.total.innerText()).toBe('1 trade');
    expect(await log.row('NQ').count()).toBe(0);

    // The server refuses: the row disappears, then comes back when the toast leaves, and a toast says so.
    await page.route('**/api/trades/*', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'Internal error' }) })
        : route.fallback(),
    );
    await log.row('ES').getByTestId('trade-delete').click();
    await log.row('ES').waitFor({ state: 'detached' });
    await log.toast('Trade deleted successfully').getByRole('button', { name: 'Close notification' }).click();
    await log.toast('Failed to delete trade').waitFor();
    await log.row('ES').waitFor();
    expect(await log.total.innerText()).toBe('1 trade');
    expect((await storedTrades(client)).map((t) => t.symbol)).toEqual(['ES']);
  });

  it('keeps a trade whose delete waits for Undo out of lists refreshed meanwhile, and Undo still brings it back', async () => {
    const { client, log, page } = await trader({ width: 390, height: 844, colorScheme: 'light' });
    await seedTrade(client, { date: '2026-03-11', symbol: 'RTY', pnl: 20 });
    await seedTrade(client, { date: '2026-03-10', symbol: 'GC', pnl: 50, tags: ['trend'] });
    await seedTrade(client, { date: '2026-03-09', symbol: 'ZB', pnl: -40 });
    await log.goto();
    // Card view on a phone: the same delete, the same Undo.
    await log.cards.filter({ hasText: 'ZB' }).waitFor();
    await log.cards.filter({ hasText: 'GC' }).getByTestId('trade-delete').click();
    await log.cards.filter({ hasText: 'GC' }).waitFor({ state: 'detached' });
    // A second delete replaces the first toast: GC is deleted for good, and the lists it refreshes must not bring
    // back ZB, whose toast is now the one showing.
    await log.cards.filter({ hasText: 'ZB' }).getByTestId('trade-delete').click();
    await log.cards.filter({ hasText: 'ZB' }).waitFor({ state: 'detached' });
    await eventually(async () => (await storedTrades(client)).map((t) => t.symbol).sort()).toEqual(['RTY', 'ZB']);
    await page.waitForLoadState('networkidle');
    expect(await log.cards.filter({ hasText: 'ZB' }).count()).toBe(0);
    expect(await log.total.innerText()).toBe('1 trade');
    // The unassigned count agrees with the list too: ZB is left out while its Undo shows.
    const unassignedOption = async (name: string) => {
      await page.getByTestId('account-selector').click();
      await page.getByRole('option', { name }).waitFor();
      await page.keyboard.press('Escape');
    };
    await unassignedOption('Unassigned Trades (1)');
    await log.toast('Trade deleted successfully').getByRole('button', { name: 'Undo' }).click();
    await log.cards.filter({ hasText: 'ZB' }).waitFor();
    await eventually(() => log.total.innerText()).toBe('2 trades');
    await unassignedOption('Unassigned Trades (2)');
    expect((await storedTrades(client)).map((t) => t.symbol).sort()).toEqual(['RTY', 'ZB']);
  });

  it('selects several trades and deletes them after the confirmation', async () => {
    const { client, log } = await trader();
    const symbols = ['AA', 'BB', 'CC', 'DD', 'EE', 'FF', 'GG'];
    for (const [i, symbol] of symbols.entries()) await seedTrade(client, { date: `2026-03-0${i + 1}`, symbol, pnl: 10 * (i + 1) });
    await log.goto();
    await log.footer.waitFor();
    // Compact: the 5 most recent of 7.
    expect(await log.footer.innerText()).toBe('Showing 5 most recent trades. Maximize to see all 7 trades.');
    expect(await log.instruments()).toEqual(['GG', 'FF', 'EE', 'DD', 'CC']);

    await log.selectModeButton.click();
    await log.selectAllButton.click();
    expect(await log.selectAllButton.innerText()).toBe('Unselect All');
    await log.selectAllButton.click();
    expect(await log.selectAllButton.innerText()).toBe('Select All');
    for (const symbol of ['GG', 'EE', 'CC']) await log.row(symbol).getByTestId('trade-select').check();
    await log.deleteSelectedButton.click();
    await log.bulkDeleteDialog.waitFor();
    expect(await log.bulkDeleteDialog.innerText()).toContain(
      'Delete selected trades? This action cannot be undone. It will permanently delete 3 trade(s).',
    );
    await log.bulkDeleteDialog.getByRole('button', { name: 'Delete' }).click();
    await log.toast('Deleted selected trades').waitFor();
    await expect.poll(() => log.instruments()).toEqual(['FF', 'DD', 'BB', 'AA']);
    expect((await storedTrades(client)).map((t) => t.symbol).sort()).toEqual(['AA', 'BB', 'DD', 'FF']);
    // Leaving select mode clears the selection: the checkboxes are gone.
    expect(await log.tradesPanel.getByTestId('trade-select').count()).toBe(0);
  });
});

describe('the maximized table', () => {
  const box = async (locator: Locator) => (await locator.boundingBox())!;

  it.each([
    ['dark', 1440, 900],
    ['light', 390, 844],
  ] as const)('shows Notes whole beside the sticky Actions column, %s %i px', async (theme, width, height) => {
    const { client, log, page } = await trader({ width, height, colorScheme: theme });
    const account = await createAccount(client, 'Main', { is_default: true });
    await createAccount(client, 'Evaluation');
    const note = 'Waited for the retest of the opening range and scaled out at the prior day high';
    for (const day of ['09', '10', '11']) {
      await seedTrade(client, { date: `2026-03-${day}`, symbol: 'NQ', pnl: 120, account_id: account.id, notes: note, tags: ['fomo', 'open drive'] });
    }
    await log.goto();
    await log.rows.or(log.cards).first().waitFor();
    await page.getByTestId('toggle-maximize').click();
    if (width < 768) await page.getByTestId('view-toggle').getByTitle('Table view').click();
    const scroller = page.getByTestId('trade-scroller');
    await log.rows.first().waitFor();
    const row = log.rows.first();
    const notes = row.locator('[data-col="notes"]');
    const actions = row.locator('[data-col="actions"]');
    expect(await notes.getAttribute('title')).toBe(note);
    // The newest row is a Wednesday, the longest day name: whole, not 'Wednesd…'; its tags stay in their column.
    expect(await row.locator('[data-col="day"]').innerText()).toBe('Wednesday');
    expect(await row.locator('[data-col="day"]').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const tags = await box(row.getByTestId('trade-tags'));
    expect(tags.x + tags.width).toBeLessThanOrEqual((await box(notes)).x + 1);

    const check = async (label: string) => {
      const frame = await box(scroller);
      // Actions stays at the right edge of the table's frame, wherever it is scrolled.
      expect(Math.abs((await box(actions)).x + (await box(actions)).width - (frame.x + frame.width)), `${label}: Actions sticky`).toBeLessThanOrEqual(
        2,
      );
      // Scrolled to its end, every column is in view and Notes ends where Actions begins, never under it.
      await scroller.evaluate((el) => (el.scrollLeft = el.scrollWidth));
      await eventually(
        async () => (await box(notes)).x + (await box(notes)).width <= (await box(actions)).x + 1,
        `${label}: Notes under Actions`,
      ).toBe(true);
      expect((await box(notes)).width, `${label}: Notes width`).toBeGreaterThanOrEqual(240);
      await scroller.evaluate((el) => (el.scrollLeft = 0));
    };

    // Wider than the screen since it shows times, sizes and prices: it scrolls inside its card, never the
    // page, and Actions stays on screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect((await box(actions)).x + (await box(actions)).width).toBeLessThanOrEqual(width);
    await check('one account');
    await log.chooseAccount('All Trades');
    await row.locator('[data-col="account"]').waitFor();
    await check('all trades');
  });

  it.each([
    ['dark', 1440, 900],
    ['light', 390, 844],
  ] as const)("edits inline with the dialog's date picker and marks an emptied Session on the field, %s %i px", async (theme, width, height) => {
    const { client, log, page } = await trader({ width, height, colorScheme: theme });
    const trade = await seedTrade(client, { date: '2026-03-09', symbol: 'NQ', pnl: 120 });
    await log.goto();
    await log.rows.or(log.cards).first().waitFor();
    await page.getByTestId('toggle-maximize').click();
    if (width < 768) await page.getByTestId('view-toggle').getByTitle('Table view').click();
    await log.rows.first().getByTestId('trade-edit').click();
    const inline = page.getByTestId('inline-edit-row');
    await inline.waitFor();

    // The Mantine calendar of the Add/Edit dialog, not the browser's native date field.
    const date = inline.getByTestId('inline-date');
    expect(await date.evaluate((el) => el.tagName)).toBe('BUTTON');
    expect(await date.innerText()).toBe('Mar 9, 2026');
    await date.click();
    await page.getByRole('button', { name: '12 March 2026' }).click();
    await eventually(() => date.innerText()).toBe('Mar 12, 2026');
    expect(await inline.locator('[data-col="day"]').innerText()).toBe('Thursday');
    // Wide enough for the whole date.
    expect(await date.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

    // Session emptied: Done is refused with the spec's toast and the field itself is marked.
    const session = inline.getByTestId('inline-session');
    await session.click();
    await page.getByRole('option', { name: 'AM', exact: true }).click();
    await eventually(() => session.inputValue()).toBe('');
    await inline.getByTestId('inline-done').click();
    await log.toast('Please fill in all required fields.').waitFor();
    expect(await session.getAttribute('aria-invalid')).toBe('true');
    expect((await storedTrades(client))[0]).toMatchObject({ id: trade.id, date: '2026-03-09', period: 'AM' });

    await session.click();
    await page.getByRole('option', { name: 'PM', exact: true }).click();
    await eventually(() => session.getAttribute('aria-invalid')).toBe(null);
    await inline.getByTestId('inline-done').click();
    await log.toast('Trade updated successfully').waitFor();
    await eventually(async () => (await storedTrades(client))[0]).toMatchObject({ id: trade.id, date: '2026-03-12', period: 'PM' });
  });
});

describe('the list', () => {
  it('searches on the server, and the maximized list scrolls through 1,200 trades with only the visible rows in the page', async () => {
    const { client, log, page } = await trader();
    const account = (await client.post('/api/accounts', { name: 'Bulk' })).body as { id: string };
    const trades = Array.from({ length: 1200 }, (_, i) => ({
      date: `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
      symbol: i === 777 ? 'NEEDLE' : 'NQ',
      period: 'AM',
      pnl: (i % 7) - 3,
      notes: `trade number ${i}`,
    }));
    expect((await client.post('/api/trades/import', { account_id: account.id, trades })).status).toBe(201);
    await log.goto();
    await log.footer.waitFor();
    expect(await log.footer.innerText()).toBe('Showing 5 most recent trades. Maximize to see all 1200 trades.');

    await page.getByTestId('trade-search').fill('needle');
    await expect.poll(() => log.instruments()).toEqual(['NEEDLE']);
    // Statistics and Trade Analysis count the trades the search shows, not the whole account.
    const stats = async () =>
      Promise.all(['stat-trades', 'stat-wins', 'stat-losses', 'stat-be', 'stat-net-pnl'].map((id) => log.statsPanel.getByTestId(id).innerText()));
    await eventually(stats).toEqual(['1', '0', '1', '0', '-$3.00']);
    // 'trade number 77' and 770-779: 3 wins, 7 losses, a break-even, -$9.00 in all.
    await page.getByTestId('trade-search').fill('number 77');
    await eventually(() => log.footer.innerText()).toBe('Showing 5 most recent trades. Maximize to see all 11 trades.');
    await eventually(stats).toEqual(['11', '3', '7', '1', '-$9.00']);
    await page.getByTestId('trade-search').fill('');
    await expect.poll(() => log.rows.count()).toBe(5);
    await eventually(stats).toEqual(['1200', '513', '516', '171', '-$6.00']);

    await page.getByTestId('toggle-maximize').click();
    // Maximizing hides Statistics and Trade Analysis.
    await log.statsPanel.waitFor({ state: 'detached' });
    expect(await log.analysisPanel.count()).toBe(0);
    await log.rows.first().waitFor();
    const scroller = page.getByTestId('trade-scroller');
    expect(await log.rows.count()).toBeLessThan(80);
    // Scroll to the end: the later pages load as they come into view, and the oldest trade is the last row.
    await expect
      .poll(
        async () => {
          await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
          return page.locator('[data-testid="trade-row"][aria-rowindex="1201"]').count();
        },
        { timeout: 30_000, interval: 300 },
      )
      .toBe(1);
    expect(await log.rows.count()).toBeLessThan(80);
    expect(await log.total.innerText()).toBe('1200 trades');
  });

  it('shows cards by default on a phone, with 3 tags and notes that expand above 100 characters', async () => {
    const { client, log, page } = await trader({ width: 375, height: 800 });
    const notes = 'Waited for the sweep of the overnight low and entered on the reclaim; partials at 1R, runner to the prior high. Patience paid.';
    await seedTrade(client, { date: '2026-03-09', symbol: 'NQ', pnl: 300, tags: ['A', 'B', 'C', 'D', 'E'], notes });
    await log.goto();
    const card = log.cards.first();
    await card.waitFor();
    expect(await log.rows.count()).toBe(0);
    expect(await card.getByTestId('trade-tags').innerText()).toMatch(/A\s*B\s*C\s*\+2/);
    const shown = card.getByTestId('card-notes');
    expect((await shown.innerText()).length).toBeLessThan(notes.length);
    await card.getByRole('button', { name: 'Show more' }).click();
    expect(await shown.innerText()).toBe(notes);
    // No sideways scrolling at 375 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });

  it('shows the connection banner when the API cannot be reached, and Retry Connection recovers', async () => {
    const { client, log, page } = await trader();
    await seedTrade(client, { date: '2026-03-09', symbol: 'NQ', pnl: 300 });
    await page.route('**/api/trades**', (route) => route.abort('connectionrefused'));
    await page.goto('/trade-log');
    const banner = page.getByTestId('connection-banner');
    await banner.waitFor({ timeout: 20_000 });
    expect(await banner.innerText()).toContain('Retry Connection');
    await banner.getByRole('button', { name: 'Setup Instructions' }).click();
    await page.getByRole('dialog', { name: 'Setup Instructions' }).waitFor();
    await page.keyboard.press('Escape');
    await banner.getByRole('button', { name: 'Retry Connection' }).click();
    await log.toast('Still unable to connect').waitFor();
    await page.unroute('**/api/trades**');
    await banner.getByRole('button', { name: 'Retry Connection' }).click();
    await banner.waitFor({ state: 'detached' });
    await log.row('NQ').waitFor();
  });
});

describe('finish', () => {
  it.each(SCREEN_PAIRS)(
    "$name, $theme: inline editing refuses letters in PnL as they are typed, as the dialog does ('abc' is no amount)",
    async ({ name, width, height, theme }) => {
      const { client, log, page } = await trader({ width, height, colorScheme: theme });
      const trade = await seedTrade(client, { date: '2026-03-09', symbol: 'NQ', pnl: 120 });
      await log.goto();
      await log.rows.or(log.cards).first().waitFor();
      await page.getByTestId('toggle-maximize').click();
      if (name === 'phone') await page.getByTestId('view-toggle').getByTitle('Table view').click();
      await log.rows.first().getByTestId('trade-edit').click();
      const inline = page.getByTestId('inline-edit-row');
      const pnl = log.pnlInput(inline);
      await pnl.fill('75');
      await pnl.pressSequentially('abc');
      expect(await pnl.inputValue()).toBe('75');
      await pnl.fill('abc');
      expect(await pnl.inputValue()).toBe('75');
      // In view for the screenshot, clear of the sticky Actions column.
      await pnl.evaluate((el) => el.scrollIntoView({ block: 'nearest', inline: 'center' }));
      await waitForAnimations(page);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `finish-inline-edit-${name}-${theme}.png`) });
      await inline.getByTestId('inline-done').click();
      await log.toast('Trade updated successfully').waitFor();
      await eventually(async () => (await storedTrades(client))[0]).toMatchObject({ id: trade.id, pnl: '75.00', status: 'Win' });
    },
  );

  it.each(SCREEN_PAIRS)(
    '$name, $theme: a trade added with its side, prices and stop is priced from them, and the Reports read it in R',
    async ({ name, width, height, theme }) => {
      const { client, log, page } = await trader({ width, height, colorScheme: theme });
      const shot = (screen: string) => page.screenshot({ path: path.join(SCREENSHOT_DIR, `risk-${screen}-${name}-${theme}.png`), fullPage: true });
      await log.goto();
      await log.openAddTrade();
      const dialog = log.addDialog;
      // NQ long 2 from 18000 to 18010: 10 points x 2 x $20 = $400, written into the P&L by the prices.
      await dialog.getByTestId('trade-side').getByText('Long', { exact: true }).click();
      await dialog.getByTestId('trade-quantity').fill('2');
      await dialog.getByTestId('trade-entry-price').fill('18000');
      await dialog.getByTestId('trade-exit-price').fill('18010');
      expect(await log.pnlInput(dialog).inputValue()).toBe('400');
      // A stop on the wrong side is named on its field; 5 points under the entry risks 5 x 2 x $20 = $200: +2R.
      await dialog.getByTestId('trade-stop-price').fill('18005');
      await dialog.getByText("A long trade's stop must be below its entry price").waitFor();
      await dialog.getByTestId('trade-stop-price').fill('17995');
      expect(await dialog.getByTestId('trade-risk-preview').innerText()).toBe('Planned risk $200.00 to the stop · +2.00R');
      await dialog.getByTestId('trade-entry-time').fill('09:35');
      await waitForAnimations(page);
      await shot('add-dialog');
      await dialog.getByRole('button', { name: 'Add Trade' }).click();
      await log.toast('Trade added successfully').waitFor();
      await dialog.waitFor({ state: 'hidden' });
      const [saved] = (await client.get('/api/trades?limit=5')).body.trades as Array<Record<string, unknown>>;
      expect(saved).toMatchObject({
        side: 'Long',
        quantity: '2.00000000',
        stop_price: '17995.00000000',
        pnl: '400.00',
        r_multiple: 2,
        planned_risk: { amount: '200.00', source: 'stop' },
      });
      // Its R beside its P&L, in the table on a desktop and on the card on a phone.
      await eventually(() => page.getByTestId('trade-r').first().innerText()).toBe('+2.00R');

      // A trade without a plan: the Reports' Overview in R leaves it out, and says so.
      await seedTrade(client, { date: '2026-03-10', symbol: 'ES', pnl: -50, tags: ['FOMO'] });
      await page.goto('/reports');
      const overview = page.getByTestId('report-overview');
      await overview.getByTestId('figure-netCents').waitFor();
      await overview.getByTestId('figure-unit').getByText('R', { exact: true }).click();
      expect(await overview.getByTestId('figure-totalR').getByTestId('figure-value').innerText()).toBe('+2.00R');
      expect(await overview.getByTestId('r-note').innerText()).toContain('Computed from 1 trade; 1 trade without a planned risk, left out.');
      await waitForAnimations(page);
      await shot('reports-r');
      // The switch is a preference: the next visit opens in R.
      await page.reload();
      await overview.getByTestId('figure-totalR').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      // Mistakes: FOMO marked as one costs the ES trade's -$50; without it the net is the NQ trade's $400.
      await page.getByTestId('report-tab-mistakes').click();
      const mistakes = page.getByTestId('report-mistakes');
      await mistakes.getByTestId('mistakes-none').waitFor();
      await mistakes.getByTestId('mistake-tags').click();
      await page.getByRole('option', { name: 'FOMO', exact: true }).click();
      await eventually(() => mistakes.getByTestId('mistake-net').first().innerText()).toBe('-$50.00');
      expect(await mistakes.getByTestId('mistakes-summary').innerText()).toBe(
        'Net P&L $350.00 over all 2 trades; $400.00 without the 1 trade tagged with a mistake.',
      );
      await page.keyboard.press('Escape');
      await waitForAnimations(page);
      await shot('reports-mistakes');
      expect((await client.get('/api/mistake-tags')).body).toEqual({ tags: ['FOMO'] });
    },
  );

  it.each(SCREEN_PAIRS)(
    '$name, $theme: the Statistics switch to R, of the trades the list shows, as the Overview in R counts them',
    async ({ name, width, height, theme }) => {
      const { client, log, page } = await trader({ width, height, colorScheme: theme });
      // +3R and -0.5R on a $100 risk; the ES winner has no planned risk and is counted apart.
      await seedTrade(client, { date: '2026-03-09', symbol: 'NQ', pnl: 300, risk_amount: 100 });
      await seedTrade(client, { date: '2026-03-10', symbol: 'ES', pnl: -50, risk_amount: 100 });
      await seedTrade(client, { date: '2026-03-11', symbol: 'ES', pnl: 20 });
      await log.goto();
      const stats = log.statsPanel;
      await stats.getByTestId('stat-net-pnl').waitFor();
      expect(await stats.getByTestId('stat-r').count()).toBe(0);
      await stats.getByTestId('figure-unit').getByText('R', { exact: true }).click();
      await eventually(() => stats.getByTestId('stat-total-r').innerText()).toBe('+2.50R');
      expect(await stats.getByTestId('stat-expectancy-r').innerText()).toBe('+1.25R');
      expect(await stats.getByTestId('stat-average-win-r').innerText()).toBe('+3.00R');
      expect(await stats.getByTestId('stat-average-loss-r').innerText()).toBe('-0.50R');
      expect(await stats.getByTestId('stat-profit-factor-r').innerText()).toBe('6.00');
      expect(await stats.getByTestId('stat-r-note').innerText()).toBe(
        'In R: net P&L over planned risk, of 2 trades; 1 trade without a planned risk, left out.',
      );
      // No dollar figure under R; the counts stay (a win is a win in either unit).
      expect(await stats.getByTestId('stat-net-pnl').count()).toBe(0);
      expect(await stats.getByTestId('stat-wins').innerText()).toBe('2');
      expect(await stats.innerText()).not.toMatch(/\$\d/);

      // A Reports filter in the address ('Open in Trade Log'): the same figures as the Overview in R of that filter.
      await page.goto('/trade-log?symbol=ES');
      const overview = (await client.get('/api/reports/overview?symbol=ES')).body.r as {
        totalR: number;
        expectancyR: number;
        tradesWithoutRisk: number;
      };
      expect(overview).toMatchObject({ totalR: -0.5, expectancyR: -0.5, tradesWithoutRisk: 1 });
      await eventually(() => stats.getByTestId('stat-total-r').innerText()).toBe(formatR(overview.totalR));
      expect(await stats.getByTestId('stat-expectancy-r').innerText()).toBe(formatR(overview.expectancyR));
      expect(await stats.getByTestId('stat-profit-factor-r').innerText()).toBe('0.00');
      expect(await stats.getByTestId('stat-r-note').innerText()).toContain('1 trade without a planned risk');

      // The switch is the shared preference: kept after a reload.
      await page.goto('/trade-log');
      await page.reload();
      await eventually(() => stats.getByTestId('stat-total-r').innerText()).toBe('+2.50R');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await stats.scrollIntoViewIfNeeded();
      await waitForAnimations(page);
      await stats.screenshot({ path: path.join(SCREENSHOT_DIR, `stats-r-${name}-${theme}.png`) });

      // A search narrows the list, and the figures in R with it.
      await page.getByTestId('trade-search').fill('NQ');
      await eventually(() => stats.getByTestId('stat-total-r').innerText()).toBe('+3.00R');
      expect(await stats.getByTestId('stat-r-note').innerText()).toBe('In R: net P&L over planned risk, of 1 trade.');
    },
  );

  it.each(SCREEN_PAIRS)(
    "$name, $theme: a trade's side reads apart from its setup everywhere, 'Long' for a sample's LONG as for an import's Long",
    async ({ name, width, height, theme }) => {
      const { client, log, page } = await trader({ width, height, colorScheme: theme });
      // Onboarded, without its samples: only the trades below.
      await client.post('/api/onboarding');
      const samples = await listAll(client);
      if (samples.length) await client.post('/api/trades/bulk-delete', { ids: samples.map((t) => t.id) });
      const today = getTodayInZone(new Date(), 'America/New_York');
      // The spec's samples send LONG/SHORT as the type: stored as the side, the setup left to the trader.
      const long = await seedTrade(client, { date: today, symbol: 'NQ', pnl: 100, trade_type: 'LONG' });
      await seedTrade(client, { date: today, symbol: 'ES', pnl: -50, trade_type: 'Breakout', side: 'Short' });
      const shot = (screen: string) => page.screenshot({ path: path.join(SCREENSHOT_DIR, `finish-side-${screen}-${name}-${theme}.png`) });
      const sideOf = (text: string) => text.match(/\b(long|short)\b/gi) ?? [];

      // By its instrument: 'Wednesday' holds an 'es' too.
      const symbol = (text: string) => ({ has: page.getByTestId('trade-instrument-cell').getByText(text, { exact: true }) });

      // The Trade Log: a table on a desktop, cards on a phone.
      await log.goto();
      if (name === 'desktop') {
        await log.rows.filter(symbol('NQ')).waitFor();
        expect(await log.rows.filter(symbol('NQ')).locator('[data-col="side"]').innerText()).toBe('Long');
        expect(await log.rows.filter(symbol('NQ')).locator('[data-col="type"]').innerText()).toBe('');
        expect(await log.rows.filter(symbol('ES')).locator('[data-col="side"]').innerText()).toBe('Short');
        expect(await log.rows.filter(symbol('ES')).locator('[data-col="type"]').innerText()).toBe('Breakout');
      } else {
        await log.cards.filter(symbol('NQ')).waitFor();
        expect(sideOf(await log.cards.filter(symbol('NQ')).innerText())).toEqual(['Long']);
        expect(sideOf(await log.cards.filter(symbol('ES')).innerText())).toEqual(['Short']);
      }
      await waitForAnimations(page);
      await shot('trade-log');

      // The calendar's day dialog.
      await page.goto('/');
      await page.getByTestId(`calendar-day-${today}`).click();
      const dialog = page.getByRole('dialog', { name: /^Trades on / });
      const dayRow = (text: string) => dialog.getByTestId('day-trade-row').filter({ has: page.getByRole('link', { name: text, exact: true }) });
      const row = dayRow('NQ');
      await row.waitFor();
      expect(sideOf(await row.innerText())).toEqual(['Long']);
      expect(sideOf(await dayRow('ES').innerText())).toEqual(['Short']);
      await waitForAnimations(page);
      await shot('day-dialog');

      // The trade's own page.
      const details = new TradeDetailsPage(page);
      await details.goto(long.id);
      await eventually(() => details.field('Side').innerText()).toMatch(/Long$/);
      await waitForAnimations(page);
      await shot('trade-page');

      // Reflect: the side is a badge of its own, never a tag or the type.
      const reflect = new ReflectPage(page);
      await reflect.goto();
      await reflect.showing('This Week');
      // (Badges are drawn in capitals: their text, not their look.)
      expect(await reflect.card('NQ').getByTestId('reflection-side').textContent()).toBe('Long');
      expect(sideOf(await reflect.card('NQ').getByTestId('reflection-tags').innerText())).toEqual([]);
      expect(await reflect.card('ES').getByTestId('reflection-side').textContent()).toBe('Short');
      expect(await reflect.card('ES').getByTestId('reflection-tags').textContent()).toContain('Breakout');
      await waitForAnimations(page);
      await shot('reflect');
    },
  );
});
