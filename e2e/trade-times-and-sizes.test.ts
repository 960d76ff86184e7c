import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatDay, getTodayInZone } from '../src/domain/dates';
import type { ApiClient } from '../tests/support/app';
import { createAccount, listAll } from '../tests/api/trades-support';
import { signedInTrader, TradeLogPage } from './pages/trade-log';
import type { E2E } from './support/browser';
import { eventually, SCREEN_PAIRS, useAppTheme, useE2ESuite, waitForAnimations } from './support/scenario';

/**
 * In Chromium, both themes at 390 and 1440 px: times and sizes where traders look (the Trade Log's rows,
 * cards and columns, the calendar's day dialog, the journal's day), the sign and result as they are typed, a trade's
 * tags and notes saved on their own, and the toasts of failed saves. One server and browser for the file; each test
 * signs up its own trader.
 */

const suite = useE2ESuite();
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-issue-24-'));

interface Trader {
  client: ApiClient;
  context: BrowserContext;
  page: Page;
  log: TradeLogPage;
}

/** A new trader with no trades, in the app's theme (dark unless chosen). */
async function trader(options?: Parameters<E2E['newContext']>[0]): Promise<Trader> {
  const s = await suite.scenario(options);
  if (options?.colorScheme) await useAppTheme(s.context, options.colorScheme);
  const client = await signedInTrader(suite.e2e.app, s.context);
  return { client, context: s.context, page: s.page, log: new TradeLogPage(s.page) };
}

async function sent<T = any>(client: ApiClient, method: string, url: string, body?: unknown): Promise<T> {
  const res = await client.json(method, url, body);
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body as T;
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

const textOf = async (locator: Locator) => (await locator.innerText()).replace(/\s+/g, ' ').trim();

/** Opens the dashboard, pages its calendar to the day's month and clicks the day. */
async function openCalendarDay(page: Page, day: string) {
  await page.goto('/');
  const month = page.getByTestId('calendar-month');
  await month.waitFor();
  const target = formatDay(day, 'MMMM yyyy');
  for (let i = 0; i < 60 && (await month.innerText()) !== target; i++) {
    const [shownMonth = '', shownYear = '0'] = (await month.innerText()).split(' ');
    const shown = new Date(`${shownMonth} 1, ${shownYear}`);
    const later = shown.getFullYear() * 12 + shown.getMonth() > Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1;
    await page.getByRole('button', { name: later ? 'Previous month' : 'Next month' }).click();
  }
  expect(await month.innerText()).toBe(target);
  await page.getByTestId(`calendar-day-${day}`).click();
}

describe('times and sizes where traders look, the sign as it is typed, tags and saves on their own', () => {
  const ZONE = 'Asia/Tokyo';

  /**
   * Three imported trades (two today, one on Dec 30 of last year) and one typed by hand, for a trader in Tokyo.
   * Times are UTC here; in Tokyo 13:31:05Z is 22:31:05 the same day and 15:20Z is 00:20 the next day.
   */
  async function importedTrader(options: Parameters<E2E['newContext']>[0]) {
    const t = await trader(options);
    expect((await t.client.patch('/api/preferences', { time_zone: ZONE })).status).toBe(200);
    const today = getTodayInZone(new Date(), ZONE);
    const lastYear = `${Number(today.slice(0, 4)) - 1}-12-30`;
    const account = await createAccount(t.client, 'Main', { is_default: true });
    const backup = [
      {
        id: 'i24-mnq',
        trade_date: `${today}T12:00:00Z`,
        symbol: 'MNQ',
        contract: 'MNQM6',
        period: 'AM',
        trade_type: 'Long',
        entry_time: `${today}T13:31:05Z`,
        exit_time: `${today}T13:45:12Z`,
        quantity: '3',
        entry_price: '21050.25',
        exit_price: '21060.5',
        gross_pnl: '61.50',
        commission: '4.28',
        pnl: '57.22',
        notes: 'Opening drive, scaled at the high',
      },
      {
        id: 'i24-es',
        trade_date: `${today}T12:00:00Z`,
        symbol: 'ES',
        contract: 'ESM6',
        period: 'AM',
        trade_type: 'Short',
        entry_time: `${today}T14:02:00Z`,
        exit_time: `${today}T14:10:30Z`,
        quantity: '1',
        entry_price: '5300.25',
        exit_price: '5295.5',
        gross_pnl: '-237.50',
        commission: '2.10',
        pnl: '-239.60',
      },
      {
        id: 'i24-nq',
        trade_date: `${lastYear}T12:00:00Z`,
        symbol: 'NQ',
        contract: 'NQH6',
        period: 'PM',
        trade_type: 'Long',
        entry_time: `${lastYear}T14:30:00Z`,
        exit_time: `${lastYear}T15:20:00Z`,
        quantity: '2',
        entry_price: '21000',
        exit_price: '21010.25',
        gross_pnl: '410.00',
        commission: '4.20',
        pnl: '405.80',
      },
    ];
    expect((await t.client.post('/api/trades/import', { account_id: account.id, trades: backup })).status).toBe(201);
    await seedTrade(t.client, { date: today, symbol: 'YM', pnl: 20, account_id: account.id });
    return { ...t, today, lastYear };
  }

  it.each(SCREEN_PAIRS)(
    "$name, $theme: trades show entry and exit in the trader's zone, size, prices, gross and fees; columns hide and stay hidden after a reload; a sort by PnL; Actions in view with All Trades",
    async ({ name, width, height, theme }) => {
      const { log, page, today, lastYear } = await importedTrader({ width, height, colorScheme: theme });
      const shot = (screen: string) => page.screenshot({ path: path.join(SCREENSHOT_DIR, `issue24-${screen}-${name}-${theme}.png`) });
      const lists: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname === '/api/trades' && request.method() === 'GET') lists.push(url.search);
      });
      const symbol = (text: string) => ({ has: page.getByTestId('trade-instrument-cell').getByText(text, { exact: true }) });
      const thisDay = formatDay(today, 'MMM d');
      await log.goto();
      await log.rows.or(log.cards).nth(3).waitFor();
      const tradingOrder = await log.instruments();

      if (name === 'phone') {
        // Cards: one line of execution under each imported trade, none under the one typed by hand.
        const card = log.cards.filter(symbol('MNQ'));
        await card.waitFor();
        const execution = await card.getByTestId('trade-execution').innerText();
        for (const part of ['22:31:05 → 22:45:12', '3 @ 21050.25 → 21060.50', 'Gross $61.50', 'Fees $4.28']) expect(execution).toContain(part);
        expect(await log.cards.filter(symbol('NQ')).getByTestId('trade-execution').innerText()).toContain('23:30:00 → Dec 31 00:20:00');
        expect(await log.cards.filter(symbol('YM')).getByTestId('trade-execution').count()).toBe(0);
        expect(await card.innerText()).toContain(`${thisDay} ·`);
        expect(await log.cards.filter(symbol('NQ')).innerText()).toContain(`Dec 30, ${lastYear.slice(0, 4)} ·`);
        await waitForAnimations(page);
        await shot('cards');
        // Cards have no headers: the same orders from a menu.
        await page.getByTestId('sort-menu').click();
        await page.getByTestId('sort-by-pnl').click();
        await eventually(() => log.instruments()).toEqual(['NQ', 'MNQ', 'YM', 'ES']);
        expect(lists.at(-1)).toContain('sort=pnl&dir=desc');
        await page.getByTestId('sort-menu').click();
        await page.getByRole('menuitem', { name: 'Trading order (newest first)' }).click();
        await eventually(() => log.instruments()).toEqual(tradingOrder);
        expect(await page.getByTestId('sort-menu').innerText()).toBe('Trading order');
        await page.getByTestId('view-toggle').getByTitle('Table view').click();
      }

      const row = (text: string) => log.rows.filter(symbol(text));
      const cell = (text: string, col: string) => row(text).locator(`[data-col="${col}"]`).innerText();
      await row('MNQ').waitFor();
      expect([
        await cell('MNQ', 'date'),
        await cell('MNQ', 'entry_time'),
        await cell('MNQ', 'exit_time'),
        await cell('MNQ', 'quantity'),
        await cell('MNQ', 'entry_price'),
        await cell('MNQ', 'exit_price'),
        await cell('MNQ', 'gross_pnl'),
        await cell('MNQ', 'commission'),
        await cell('MNQ', 'pnl'),
      ]).toEqual([thisDay, '22:31:05', '22:45:12', '3', '21050.25', '21060.50', '$61.50', '$4.28', '$57.22']);
      // Another year's date carries its year; an exit after midnight in Tokyo carries its date.
      expect(await cell('NQ', 'date')).toBe(`Dec 30, ${lastYear.slice(0, 4)}`);
      expect(await cell('NQ', 'exit_time')).toBe('Dec 31 00:20:00');
      // Typed by hand: no times, size or prices; its gross is its pnl, its fees none.
      expect([await cell('YM', 'entry_time'), await cell('YM', 'quantity'), await cell('YM', 'gross_pnl'), await cell('YM', 'commission')]).toEqual([
        '—',
        '—',
        '$20.00',
        '$0.00',
      ]);

      // Sorted by the server, by a header: PnL high to low, then low to high, then back to trading order.
      await page.getByTestId('sort-pnl').click();
      await eventually(() => log.instruments()).toEqual(['NQ', 'MNQ', 'YM', 'ES']);
      expect(lists.at(-1)).toContain('sort=pnl&dir=desc');
      expect(await page.locator('th[data-col="pnl"]').getAttribute('aria-sort')).toBe('descending');
      await page.getByTestId('sort-pnl').click();
      await eventually(() => log.instruments()).toEqual(['ES', 'YM', 'MNQ', 'NQ']);
      expect(lists.at(-1)).toContain('sort=pnl&dir=asc');
      await page.getByTestId('sort-pnl').click();
      await eventually(() => log.instruments()).toEqual(tradingOrder);
      expect(await page.locator('th[data-col="date"]').getAttribute('aria-sort')).toBe('descending');
      expect(await page.locator('th[data-col="pnl"]').getAttribute('aria-sort')).toBeNull();

      // Columns hidden are hidden after a reload (this browser remembers), and come back.
      await page.getByTestId('columns-menu').click();
      await page.getByTestId('columns-dropdown').getByRole('checkbox', { name: 'Entry price' }).uncheck();
      await page.getByTestId('columns-dropdown').getByRole('checkbox', { name: 'Day' }).uncheck();
      await page.keyboard.press('Escape');
      await eventually(() => log.tradesPanel.locator('th[data-col="entry_price"]').count()).toBe(0);
      expect(await row('MNQ').locator('[data-col="day"]').count()).toBe(0);
      await page.reload();
      await log.tradesPanel.waitFor();
      if (name === 'phone') await page.getByTestId('view-toggle').getByTitle('Table view').click();
      await row('MNQ').waitFor();
      expect(await log.tradesPanel.locator('th[data-col="entry_price"]').count()).toBe(0);
      expect(await log.tradesPanel.locator('th[data-col="day"]').count()).toBe(0);
      expect(await log.tradesPanel.locator('th[data-col="exit_price"]').count()).toBe(1);
      await page.getByTestId('columns-menu').click();
      expect(await page.getByTestId('columns-dropdown').getByRole('checkbox', { name: 'Entry price' }).isChecked()).toBe(false);
      await page.getByRole('button', { name: 'Default columns' }).click();
      await page.keyboard.press('Escape');
      await eventually(() => log.tradesPanel.locator('th[data-col="entry_price"]').count()).toBe(1);

      // All Trades at this width: the table scrolls inside its card, the page does not, and Actions stays in view.
      await log.chooseAccount('All Trades');
      await row('MNQ').locator('[data-col="account"]').waitFor();
      const inView = async (label: string) => {
        const actions = (await row('MNQ').locator('[data-col="actions"]').boundingBox())!;
        expect(actions.x, `${label}: Actions on screen`).toBeGreaterThanOrEqual(0);
        expect(actions.x + actions.width, `${label}: Actions on screen`).toBeLessThanOrEqual(width);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth),
          `${label}: the page itself does not scroll sideways`,
        ).toBeLessThanOrEqual(width);
        await row('MNQ').getByTestId('trade-edit').click({ trial: true });
      };
      await inView('compact');
      await waitForAnimations(page);
      await shot('all-trades');
      await page.getByTestId('toggle-maximize').click();
      await log.statsPanel.waitFor({ state: 'detached' });
      await row('MNQ').waitFor();
      await inView('maximized');
      const scroller = page.getByTestId('trade-scroller');
      expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      await scroller.evaluate((el) => (el.scrollLeft = el.scrollWidth));
      await inView('maximized, scrolled to the end');
      await scroller.evaluate((el) => (el.scrollLeft = 0));
      await waitForAnimations(page);
      await shot('all-trades-maximized');
    },
  );

  it.each(SCREEN_PAIRS)(
    '$name, $theme: the sign and the result that will be saved show as they are typed, in Add New Trade and in inline edit',
    async ({ name, width, height, theme }) => {
      const { client, log, page } = await trader({ width, height, colorScheme: theme });
      const shot = (screen: string) => page.screenshot({ path: path.join(SCREENSHOT_DIR, `issue24-sign-${screen}-${name}-${theme}.png`) });
      await log.goto();
      await log.openAddTrade();
      const dialog = log.addDialog;
      const shown = () => dialog.getByTestId('trade-result-input').getAttribute('data-result');
      const pressed = (result: string) =>
        dialog.getByTestId('trade-result-input').getByRole('button', { name: result, exact: true }).getAttribute('aria-pressed');
      const preview = () => dialog.getByTestId('trade-net-preview').innerText();

      // Win chosen, $3 with $5 commission: the Result shows the Loss that will be saved, not Win above 'saved as Loss'.
      await dialog.getByTestId('trade-instrument').fill('MNQ');
      await log.pnlInput(dialog).fill('3');
      await dialog.getByTestId('trade-commission').fill('5');
      expect(await shown()).toBe('Loss');
      expect([await pressed('Win'), await pressed('Loss')]).toEqual(['false', 'true']);
      expect(await preview()).toContain('Net PnL -$2.00 after $5.00 commission · saved as Loss');
      await waitForAnimations(page);
      await shot('add-fees');
      await log.pnlInput(dialog).fill('150');
      expect(await shown()).toBe('Win');
      expect(await preview()).toContain('$145.00 after $5.00 commission · saved as Win');
      // Loss turns the amount negative in the field itself.
      await log.chooseResult(dialog, 'Loss');
      expect(await log.pnlInput(dialog).inputValue()).toBe('-150');
      expect(await preview()).toContain('Net PnL -$155.00 after $5.00 commission · saved as Loss');
      await dialog.getByRole('button', { name: 'Add Trade' }).click();
      await log.toast('Trade added successfully').waitFor();
      expect((await storedTrades(client))[0]).toMatchObject({ symbol: 'MNQ', pnl: '-155.00', commission: '5.00', status: 'Loss' });

      // Inline: a Loss row with $4.28 fees (-$154.28 stored, -150 before fees).
      await seedTrade(client, { date: '2026-03-09', symbol: 'ES', pnl: -154.28, commission: 4.28 });
      await page.getByTestId('toggle-maximize').click();
      if (name === 'phone') await page.getByTestId('view-toggle').getByTitle('Table view').click();
      await log.row('ES').getByTestId('trade-edit').click();
      const inline = page.getByTestId('inline-edit-row');
      const pnl = log.pnlInput(inline);
      const result = inline.getByTestId('inline-result');
      const net = inline.getByTestId('inline-net-preview');
      expect([await pnl.inputValue(), await result.inputValue(), await net.innerText()]).toEqual(['-150', 'Loss', 'Net -$154.28']);
      // Typing 150 on a Loss row: the field says -150 and the row says what will be stored, before Done.
      await pnl.fill('150');
      expect([await pnl.inputValue(), await result.inputValue(), await net.innerText()]).toEqual(['-150', 'Loss', 'Net -$154.28']);
      await result.click();
      await page.getByRole('option', { name: 'Win', exact: true }).click();
      await eventually(() => pnl.inputValue()).toBe('150');
      expect([await result.inputValue(), await net.innerText()]).toEqual(['Win', 'Net $145.72']);
      // $2 before $4.28 of fees is a Loss, and the Result says so; 25 typed through it stays a Win.
      await pnl.fill('2');
      expect([await result.inputValue(), await net.innerText()]).toEqual(['Loss', 'Net -$2.28']);
      await pnl.fill('25');
      expect([await pnl.inputValue(), await result.inputValue(), await net.innerText()]).toEqual(['25', 'Win', 'Net $20.72']);
      await pnl.evaluate((el) => el.scrollIntoView({ block: 'nearest', inline: 'center' }));
      await waitForAnimations(page);
      await shot('inline');
      await inline.getByTestId('inline-done').click();
      await log.toast('Trade updated successfully').waitFor();
      await eventually(async () => (await storedTrades(client)).find((t) => t.symbol === 'ES')).toMatchObject({
        pnl: '20.72',
        commission: '4.28',
        status: 'Win',
      });
    },
  );

  it("edits a trade's tags on their own and rolls back a refused change; says 'Failed to create trade', 'Failed to save trade' and 'No trade data to save' where they happen", async () => {
    const { client, log, page } = await trader();
    const trade = await seedTrade(client, { date: '2026-03-09', symbol: 'NQ', pnl: 120, tags: ['fomo'] });
    await log.goto();
    const tagsOf = () => log.row('NQ').getByTestId('trade-tags').innerText();
    await log.row('NQ').waitFor();

    // Tags from the Tags cell, saved on their own.
    await log.row('NQ').getByTestId('trade-tags-edit').click();
    const tagsDialog = page.getByTestId('trade-tags-dialog');
    await tagsDialog.getByTestId('tag-input').fill('A+ setup');
    await tagsDialog.getByTestId('tag-add').click();
    await tagsDialog.getByTestId('trade-tags-save').click();
    await eventually(tagsOf).toMatch(/fomo\s*A\+ setup/);
    await eventually(async () => (await client.get(`/api/trades/${trade.id}`)).body.tags).toEqual(['fomo', 'A+ setup']);

    // Refused: the row shows the change at once, then its tags again, and says so.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/trades/*', async (route) => {
      if (route.request().method() !== 'PATCH') return route.fallback();
      await held;
      return route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'Internal error' }) });
    });
    await log.row('NQ').getByTestId('trade-tags-edit').click();
    await tagsDialog.getByRole('button', { name: 'Remove tag fomo' }).click();
    await tagsDialog.getByTestId('trade-tags-save').click();
    await eventually(tagsOf).toBe('A+ setup');
    release();
    await log.toast('Failed to update tags').waitFor();
    await eventually(tagsOf).toMatch(/fomo\s*A\+ setup/);
    expect((await client.get(`/api/trades/${trade.id}`)).body.tags).toEqual(['fomo', 'A+ setup']);

    // Inline Done refused by the server: 'Failed to save trade', and the row stays open with what was typed.
    await page.getByTestId('toggle-maximize').click();
    await log.row('NQ').getByTestId('trade-edit').click();
    const inline = page.getByTestId('inline-edit-row');
    await inline.getByLabel('Instrument').fill('NQZ');
    await inline.getByTestId('inline-done').click();
    await log.toast('Failed to save trade').waitFor();
    expect(await inline.getByLabel('Instrument').inputValue()).toBe('NQZ');
    // The trade was deleted meanwhile (another tab): nothing is left to save it to.
    await page.unroute('**/api/trades/*');
    expect((await client.delete(`/api/trades/${trade.id}`)).status).toBe(204);
    await inline.getByTestId('inline-done').click();
    await log.toast('No trade data to save').waitFor();
    await inline.waitFor({ state: 'detached' });

    // Adding while the server fails: 'Failed to create trade', and the dialog keeps what was typed.
    await page.route('**/api/trades', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'Service unavailable' }) })
        : route.fallback(),
    );
    await log.openAddTrade();
    await log.addDialog.getByTestId('trade-instrument').fill('CL');
    await log.addDialog.getByRole('button', { name: 'Add Trade' }).click();
    await log.toast('Failed to create trade').waitFor();
    expect(await log.addDialog.getByTestId('trade-instrument').inputValue()).toBe('CL');
    expect(await storedTrades(client)).toEqual([]);
  });
});

describe('the day dialog: times and sizes, and a trade’s notes on their own', () => {
  it.each(SCREEN_PAIRS)(
    "$name, $theme: shows each trade's entry and exit in the trader's zone, size, prices, gross and fees, and edits its notes with Save and Cancel",
    async ({ name, width, height, theme }) => {
      const { client: api, page } = await trader({ width, height, colorScheme: theme });
      // Onboarding done (the dashboard asks otherwise), its sample trades gone.
      expect((await api.post('/api/onboarding')).status).toBeLessThan(300);
      const samples = await listAll(api);
      if (samples.length) expect((await api.post('/api/trades/bulk-delete', { ids: samples.map((t) => t.id) })).status).toBe(200);
      expect((await api.patch('/api/preferences', { time_zone: 'Asia/Tokyo' })).status).toBe(200);
      const account = (await api.post('/api/accounts', { name: 'Main', is_default: true })).body as { id: string };
      const imported = await api.post('/api/trades/import', {
        account_id: account.id,
        trades: [
          {
            id: 'd24-mnq',
            trade_date: '2026-03-10T12:00:00Z',
            symbol: 'MNQ',
            contract: 'MNQH6',
            period: 'AM',
            trade_type: 'Long',
            entry_time: '2026-03-10T13:31:05Z',
            exit_time: '2026-03-10T13:45:12Z',
            quantity: '3',
            entry_price: '21050.25',
            exit_price: '21060.5',
            gross_pnl: '61.50',
            commission: '4.28',
            pnl: '57.22',
          },
        ],
      });
      expect(imported.status, JSON.stringify(imported.body)).toBe(201);
      const [trade] = await listAll(api);
      const shot = (screen: string) => page.screenshot({ path: path.join(SCREENSHOT_DIR, `issue24-day-${screen}-${name}-${theme}.png`) });

      await openCalendarDay(page, '2026-03-10');
      const dialog = page.getByRole('dialog', { name: 'Trades on Tuesday, March 10, 2026' });
      const row = dialog.getByTestId('day-trade-row');
      await row.waitFor();
      expect(await textOf(dialog.getByTestId('day-trades-zone'))).toBe('Times in Asia/Tokyo');
      if (name === 'phone') {
        const execution = await textOf(dialog.getByTestId('day-trade-more').getByTestId('trade-execution'));
        expect(execution).toBe('22:31:05 → 22:45:12 · 3 @ 21050.25 → 21060.50 · Gross $61.50 · Fees $4.28');
        // Result and PnL stay on screen.
        const pnl = (await row.getByTestId('day-trade-pnl').boundingBox())!;
        expect(pnl.x + pnl.width).toBeLessThanOrEqual(width);
      } else {
        expect([
          await textOf(row.getByTestId('day-trade-entry')),
          await textOf(row.getByTestId('day-trade-exit')),
          await textOf(row.getByTestId('day-trade-quantity')),
          await textOf(row.getByTestId('day-trade-gross')),
          await textOf(row.getByTestId('day-trade-fees')),
          await textOf(row.getByTestId('day-trade-pnl')),
        ]).toEqual(['22:31:05', '22:45:12', '3', '+$61.50', '$4.28', '+$57.22']);
        expect(await textOf(row)).toContain('21050.25');
      }

      // Notes: view, Edit, Cancel keeps them; Save saves them on their own.
      await dialog.getByTestId('day-trade-notes-toggle').click();
      const notes = dialog.getByTestId('day-trade-notes');
      expect(await textOf(notes.getByTestId('trade-notes-text'))).toBe('No notes yet.');
      await notes.getByTestId('trade-notes-edit').click();
      await notes.getByTestId('trade-notes-input').fill('Chased the open');
      await notes.getByTestId('trade-notes-cancel').click();
      expect(await textOf(notes.getByTestId('trade-notes-text'))).toBe('No notes yet.');
      await notes.getByTestId('trade-notes-edit').click();
      await notes.getByTestId('trade-notes-input').fill('Waited for the retest, held to target');
      await waitForAnimations(page);
      await shot('notes-editing');
      await notes.getByTestId('trade-notes-save').click();
      await page.getByRole('alert').filter({ hasText: 'Notes updated successfully' }).last().waitFor();
      expect(await textOf(notes.getByTestId('trade-notes-text'))).toBe('Waited for the retest, held to target');
      await eventually(async () => (await api.get(`/api/trades/${trade!.id}`)).body.notes).toBe('Waited for the retest, held to target');

      // Refused: the note shows the saved text again, the toast says why, and what was typed is kept to try again.
      await page.route('**/api/trades/*', (route) =>
        route.request().method() === 'PATCH'
          ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'Internal error' }) })
          : route.fallback(),
      );
      await notes.getByTestId('trade-notes-edit').click();
      await notes.getByTestId('trade-notes-input').fill('A different story');
      await notes.getByTestId('trade-notes-save').click();
      await page.getByRole('alert').filter({ hasText: 'Failed to update notes' }).last().waitFor();
      await eventually(() => notes.getByTestId('trade-notes-input').inputValue()).toBe('A different story');
      await notes.getByTestId('trade-notes-cancel').click();
      expect(await textOf(notes.getByTestId('trade-notes-text'))).toBe('Waited for the retest, held to target');
      expect((await api.get(`/api/trades/${trade!.id}`)).body.notes).toBe('Waited for the retest, held to target');
      await waitForAnimations(page);
      await shot('notes');
    },
  );
});

describe("the journal's day: times and sizes in the trader's zone", () => {
  it.each(SCREEN_PAIRS)(
    "$name, $theme: lists this year's days as 'EEE MMM d' and last year's under their year, and shows each trade's execution",
    async ({ name, width, height, theme }) => {
      const { client, page } = await trader({ width, height, colorScheme: theme });
      await sent(client, 'PATCH', '/api/preferences', { time_zone: 'Asia/Tokyo' });
      const today = getTodayInZone(new Date(), 'Asia/Tokyo');
      const lastYear = `${Number(today.slice(0, 4)) - 1}-12-30`;
      const account = await sent(client, 'POST', '/api/accounts', { name: 'Main' });
      await sent(client, 'POST', '/api/trades/import', {
        account_id: account.id,
        trades: [
          {
            id: 'j24-mnq',
            trade_date: `${today}T12:00:00Z`,
            symbol: 'MNQ',
            period: 'AM',
            entry_time: `${today}T13:31:05Z`,
            exit_time: `${today}T13:45:12Z`,
            quantity: '3',
            entry_price: '21050.25',
            exit_price: '21060.5',
            gross_pnl: '61.50',
            commission: '4.28',
            pnl: '57.22',
          },
          { id: 'j24-nq', trade_date: `${lastYear}T12:00:00Z`, symbol: 'NQ', period: 'PM', pnl: '120.00' },
        ],
      });
      await page.goto('/journal');
      const days = page.getByTestId('journal-day');
      await eventually(() => days.count()).toBe(2);
      expect(await days.getByTestId('journal-day-date').allInnerTexts()).toEqual([formatDay(today, 'EEE MMM d'), formatDay(lastYear, 'EEE MMM d')]);
      expect(await page.getByTestId('journal-year').allInnerTexts()).toEqual([lastYear.slice(0, 4)]);
      await eventually(() => days.nth(0).getAttribute('aria-current')).toBe('true');
      const trade = page.getByTestId('journal-trade');
      await trade.waitFor();
      if (name === 'phone') {
        expect(await trade.getByTestId('trade-execution').innerText()).toBe(
          '22:31:05 → 22:45:12 · 3 @ 21050.25 → 21060.50 · Gross $61.50 · Fees $4.28',
        );
      } else {
        expect([
          await trade.getByTestId('journal-trade-entry').innerText(),
          await trade.getByTestId('journal-trade-exit').innerText(),
          await trade.getByTestId('journal-trade-quantity').innerText(),
          await trade.getByTestId('journal-trade-gross').innerText(),
          await trade.getByTestId('journal-trade-fees').innerText(),
          await trade.getByTestId('journal-trade-pnl').innerText(),
        ]).toEqual(['22:31:05', '22:45:12', '3', '$61.50', '$4.28', '$57.22']);
      }
      // A trade typed by hand shows no execution, and no invented one.
      await days.nth(1).click();
      await eventually(() => page.getByTestId('journal-date').inputValue()).toBe(formatDay(lastYear, 'EEEE, MMMM d, yyyy'));
      await eventually(() => trade.innerText()).toContain('NQ');
      expect(await trade.getByTestId('trade-execution').count()).toBe(0);
      if (name === 'desktop') expect(await trade.getByTestId('journal-trade-entry').innerText()).toBe('—');
      await days.nth(0).click();
      await trade.filter({ hasText: 'MNQ' }).waitFor();
      await waitForAnimations(page);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `issue24-journal-${name}-${theme}.png`) });
    },
  );
});
