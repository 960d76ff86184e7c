import { describe, expect, it } from 'vitest';
import { getTodayInZone } from '../src/domain/dates';
import type { ApiClient } from '../tests/support/app';
import { QuickLinksWidget } from './pages/quick-links';
import { SearchPalette } from './pages/search-palette';
import { TradeDetailsPage } from './pages/trade-details';
import { signedInTrader, TradeLogPage } from './pages/trade-log';
import { seriousA11yViolations } from './support/a11y';
import type { E2E } from './support/browser';
import { eventually, useAppTheme, useE2ESuite } from './support/scenario';

/**
 * A trade's own page and the quick links as a trader uses them in Chromium:
 * opened from the Trade Log and the calendar's day dialog, walked
 * with the arrows, a note and images linked to it; links added, reordered, opened safely, moved from the old
 * browser list, found in the search palette.
 */

const suite = useE2ESuite();
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function trader(options?: Parameters<E2E['newContext']>[0]) {
  const s = await suite.scenario(options);
  const client = await signedInTrader(suite.e2e.app, s.context);
  return { client, context: s.context, page: s.page, details: new TradeDetailsPage(s.page), links: new QuickLinksWidget(s.page) };
}

async function api<T = any>(client: ApiClient, method: string, path: string, body?: unknown): Promise<T> {
  const res = await client.json(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body as T;
}

const seedTrade = (client: ApiClient, input: Record<string, unknown>) =>
  api<{ id: string; symbol: string }>(client, 'POST', '/api/trades', { period: 'AM', trade_type: 'A/A+', ...input });

describe('trade details', () => {
  it("shows an imported average price at the instrument's tick precision, the exact value on hover", async () => {
    for (const view of [
      { width: 1440, height: 900, colorScheme: 'dark' as const },
      { width: 390, height: 844, colorScheme: 'light' as const },
    ]) {
      const { client, page, details, context } = await trader(view);
      await useAppTheme(context, view.colorScheme);
      const account = await api<{ id: string }>(client, 'POST', '/api/accounts', { name: 'Combine' });
      const row = { period: 'AM', trade_type: 'A/A+', status: 'Win', side: 'Long', quantity: '7', import_source: 'tradovate-orders' };
      await api(client, 'POST', '/api/trades/import', {
        account_id: account.id,
        trades: [
          { ...row, date: '2025-11-03', symbol: 'NQ', contract: 'NQZ5', pnl: 626, entry_price: '25235.78571429', exit_price: '25240.25' },
          { ...row, date: '2025-11-04', symbol: 'YM', contract: 'YMZ5', pnl: 35, entry_price: '43125.66666667', exit_price: '43127' },
        ],
      });
      const trades = (await api<{ trades: Array<{ id: string; symbol: string }> }>(client, 'GET', '/api/trades?limit=10')).trades;
      for (const [symbol, entry, exact, exit] of [
        ['NQ', '25235.79', '25235.78571429', '25240.25'],
        ['YM', '43126', '43125.66666667', '43127'],
      ] as const) {
        await page.goto(`/trade/${trades.find((t) => t.symbol === symbol)!.id}`);
        await details.symbol.waitFor();
        const price = details.field('Entry price').getByTestId('price');
        expect(await price.innerText()).toBe(entry);
        expect(await price.getAttribute('title')).toBe(exact);
        expect(await details.field('Exit price').getByTestId('price').innerText()).toBe(exit);
      }
    }
  });

  it('opens from the Trade Log, shows every field, links a note and images, and walks to the next trade', async () => {
    const { client, page, details } = await trader();
    const older = await seedTrade(client, { date: '2025-03-03', symbol: 'ES', pnl: -40 });
    const newer = await seedTrade(client, {
      date: '2025-03-04',
      symbol: 'NQ',
      pnl: 412.5,
      commission: 4.5,
      notes: 'Clean IB break',
      tags: ['A+', 'Breakout'],
      link: 'https://www.tradingview.com/x/abc/',
    });

    const log = new TradeLogPage(page);
    await log.goto();
    await log.row('NQ').getByTestId('trade-details-link').click();
    await page.waitForURL((url) => url.pathname === `/trade/${newer.id}`);
    await details.symbol.waitFor();
    expect(await details.symbol.innerText()).toBe('NQ');
    expect(await details.pnl.innerText()).toBe('$412.50');
    expect(await details.date.innerText()).toBe('Tuesday, March 4, 2025');
    expect(await details.field('Commission').innerText()).toContain('$4.50');
    expect(await details.field('Net P&L').innerText()).toContain('$412.50');
    expect(await details.field('Notes').innerText()).toContain('Clean IB break');
    expect(await details.field('Tags').innerText()).toContain('Breakout');
    expect(await details.field('Account').innerText()).toContain('Unassigned');
    const link = details.field('Link').getByRole('link');
    expect(await link.getAttribute('href')).toBe('https://www.tradingview.com/x/abc/');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toContain('noopener');
    expect(await details.field('Entry price').innerText()).toContain('—');

    // Linked notes: empty, then one created here.
    expect(await details.linkedNotes.getByTestId('linked-notes-empty').innerText()).toBe('No notes linked yet.');
    await details.linkedNotes.getByTestId('linked-note-title-input').fill('Why it worked');
    await details.linkedNotes.getByTestId('linked-note-content-input').fill('Waited for the **retest**.');
    await details.linkedNotes.getByRole('button', { name: 'Create Linked Note' }).click();
    await details.toast('Note linked to trade').waitFor();
    await details.linkedNotes.getByTestId('linked-note').waitFor();
    expect(await details.linkedNotes.getByTestId('linked-note-content').locator('strong').innerText()).toBe('retest');
    const [note] = (await api(client, 'GET', `/api/notes?trade_id=${newer.id}`)).notes;
    expect(note).toMatchObject({ title: 'Why it worked', net_pl: '412.50', stocks_traded: 'NQ' });

    // Attachments: empty, by URL, by file.
    expect(await details.attachments.getByTestId('trade-attachments-empty').innerText()).toBe('No attachments yet.');
    await details.attachments.getByTestId('trade-attachments-url').fill('https://charts.example.test/nq.png');
    await details.attachments.getByRole('button', { name: 'Add', exact: true }).click();
    await details.toast('Attachment added').waitFor();
    const chooser = page.waitForEvent('filechooser');
    await details.attachments.getByTestId('trade-attachments-upload').click();
    await (await chooser).setFiles({ name: 'fill.png', mimeType: 'image/png', buffer: PNG });
    await eventually(() => details.attachments.getByTestId('trade-attachments-item').count()).toBe(2);
    await eventually(() =>
      details.attachments.locator('img[src^="/api/attachments/files/"]').evaluate((img) => (img as HTMLImageElement).naturalWidth),
    ).toBe(1);

    // The linked note opens in the notebook with the trade's figures.
    await details.linkedNotes.getByTestId('linked-note-title').click();
    await page.waitForURL((url) => url.pathname === '/notebook');
    await eventually(() => page.getByTestId('note-title').inputValue()).toBe('Why it worked');
    expect(await page.getByTestId('note-net-pl').innerText()).toBe('$412.50');
    expect(await page.getByTestId('note-stocks').innerText()).toBe('NQ');
    await page.getByTestId('note-view-trade').click();
    await page.waitForURL((url) => url.pathname === `/trade/${newer.id}`);

    // Previous (older) and next (newer) walk the trader's trades; the ends are disabled.
    await details.symbol.waitFor();
    expect(await details.next.isDisabled()).toBe(true);
    await details.previous.click();
    await page.waitForURL((url) => url.pathname === `/trade/${older.id}`);
    await eventually(() => details.symbol.innerText()).toBe('ES');
    expect(await details.pnl.innerText()).toBe('-$40.00');
    expect(await details.previous.isDisabled()).toBe(true);
  });

  it("opens from the calendar's day dialog", async () => {
    const { client, page, details } = await trader();
    const today = getTodayInZone(new Date(), 'America/New_York');
    const trade = await seedTrade(client, { date: today, symbol: 'YM', pnl: 15 });
    await page.goto('/');
    await page.getByTestId(`calendar-day-${today}`).click();
    const dialog = page.getByRole('dialog', { name: /^Trades on / });
    await dialog.getByRole('link', { name: 'YM' }).click();
    await page.waitForURL((url) => url.pathname === `/trade/${trade.id}`);
    await eventually(() => details.symbol.innerText()).toBe('YM');
  });

  it("an unknown id and another trader's trade show a not-found state", async () => {
    const { page, details } = await trader();
    const other = await signedInTrader(suite.e2e.app, (await suite.scenario()).context);
    const theirs = await seedTrade(other, { date: '2025-03-03', symbol: 'SECRET', pnl: 999 });
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000', 'not-a-trade']) {
      await details.goto(id);
      await details.notFound.waitFor();
      expect(await details.notFound.innerText()).toContain('Trade not found');
      expect(await page.getByText('SECRET').count()).toBe(0);
    }
  });

  it('renders what a trade and its notes say as text: no script, handler or javascript: link runs', async () => {
    const { client, page, details } = await trader();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const trade = await seedTrade(client, {
      date: '2025-03-03',
      symbol: '<img src=x onerror=window.__xss=1>',
      notes: '<script>window.__xss=2</script>',
      link: 'javascript:window.__xss=3',
      tags: ['<svg onload=window.__xss=4>'],
    });
    await api(client, 'POST', '/api/notes', {
      title: '<b onclick=window.__xss=5>t</b>',
      content: '[x](javascript:window.__xss=6) <img src=x onerror=window.__xss=7>',
      trade_id: trade.id,
    });
    await details.goto(trade.id);
    expect(await details.symbol.innerText()).toBe('<img src=x onerror=window.__xss=1>');
    expect(await details.field('Link').getByRole('link').count()).toBe(0);
    expect(await details.field('Link').innerText()).toContain('javascript:window.__xss=3');
    for (const a of await page.locator('main a').all()) expect((await a.getAttribute('href')) ?? '').not.toMatch(/^\s*javascript:/i);
    await details.linkedNotes.getByText('x', { exact: true }).click();
    expect(await page.locator('main script, main [onerror], main [onload], main [onclick]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });
});

describe('quick links', () => {
  it('adds, opens safely, edits, reorders by drag and deletes links; javascript: is refused', async () => {
    const { client, context, page, links } = await trader();
    await page.goto('/');
    await links.addToDashboard();
    await links.root.getByTestId('quick-links-empty').waitFor();

    await links.root.getByTestId('quick-link-add').click();
    await links.fillForm('Evil', 'javascript:alert(document.cookie)');
    await links.dialog.getByText('Only http and https addresses can be quick links').waitFor();
    const healthUrl = `${suite.e2e.app.url}/api/health`;
    await links.fillForm('Health', healthUrl);
    await links.dialog.waitFor({ state: 'hidden' });
    await links.root.getByTestId('quick-link-add').click();
    await links.fillForm('Second', 'second.example.test/path');
    await links.dialog.waitFor({ state: 'hidden' });
    await links.root.getByTestId('quick-link-add').click();
    await links.fillForm('Third', 'https://third.example.test/');
    await links.dialog.waitFor({ state: 'hidden' });
    await eventually(() => links.titles()).toEqual(['Health', 'Second', 'Third']);
    const stored = await api<Array<{ title: string; url: string; position: number }>>(client, 'GET', '/api/quick-links');
    expect(stored.map((l) => [l.title, l.url, l.position])).toEqual([
      ['Health', healthUrl, 1],
      ['Second', 'https://second.example.test/path', 2],
      ['Third', 'https://third.example.test/', 3],
    ]);

    // Opens in a new tab that cannot reach back into Edgebook.
    const anchor = links.link('Health').getByTestId('quick-link-anchor');
    expect(await anchor.getAttribute('target')).toBe('_blank');
    expect(await anchor.getAttribute('rel')).toBe('noopener noreferrer');
    const opened = context.waitForEvent('page');
    await anchor.click();
    const tab = await opened;
    await tab.waitForLoadState();
    expect(tab.url()).toBe(healthUrl);
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    await tab.close();

    // Edit.
    await links.link('Second').getByTestId('quick-link-edit').click();
    await links.dialog.getByTestId('quick-link-title').fill('Second (edited)');
    await links.dialog.getByTestId('quick-link-save').click();
    await eventually(() => links.titles()).toEqual(['Health', 'Second (edited)', 'Third']);

    // Reorder with the keyboard (dnd-kit's sensor): Third moves to the top; kept on reload.
    await links.link('Third').scrollIntoViewIfNeeded();
    await links.link('Third').getByTestId('quick-link-handle').focus();
    for (const key of ['Space', 'ArrowUp', 'ArrowUp', 'Space']) {
      await page.keyboard.press(key);
      await page.waitForTimeout(150);
    }
    await eventually(() => links.titles()).toEqual(['Third', 'Health', 'Second (edited)']);
    await eventually(async () =>
      (await api<Array<{ title: string; position: number }>>(client, 'GET', '/api/quick-links')).map((l) => [l.title, l.position]),
    ).toEqual([
      ['Third', 1],
      ['Health', 2],
      ['Second (edited)', 3],
    ]);
    // And with the mouse: Health dragged below Second.
    const from = await links.link('Health').getByTestId('quick-link-handle').boundingBox();
    const to = await links.link('Second (edited)').boundingBox();
    await page.mouse.move(from!.x + from!.width / 2, from!.y + from!.height / 2);
    await page.mouse.down();
    await page.mouse.move(from!.x + from!.width / 2, to!.y + to!.height / 2 + 4, { steps: 12 });
    await page.mouse.move(from!.x + from!.width / 2, to!.y + to!.height - 2, { steps: 4 });
    await page.mouse.up();
    await eventually(() => links.titles()).toEqual(['Third', 'Second (edited)', 'Health']);
    await page.reload();
    await eventually(() => links.titles()).toEqual(['Third', 'Second (edited)', 'Health']);

    // Delete.
    await links.link('Third').getByTestId('quick-link-delete').click();
    await eventually(() => links.titles()).toEqual(['Second (edited)', 'Health']);
    expect((await api<unknown[]>(client, 'GET', '/api/quick-links')).length).toBe(2);
  });

  it('finds links in the search palette and opens them in a new tab', async () => {
    const { client, context, page } = await trader();
    const url = `${suite.e2e.app.url}/api/health`;
    await api(client, 'POST', '/api/quick-links', { title: 'Server health', url });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.getByTestId('widget-tradelog-pnl-calendar').waitFor();
    const palette = new SearchPalette(page);
    await palette.openWithShortcut();
    await palette.search('health');
    const entry = page.getByTestId('search-quick-link');
    await entry.waitFor();
    expect(await entry.innerText()).toContain('Server health');
    // The spec's 18 fixed entries are still the only entries of their own groups.
    expect(await palette.shownIds()).toEqual([]);
    const opened = context.waitForEvent('page');
    await entry.click();
    const tab = await opened;
    await tab.waitForLoadState();
    expect(tab.url()).toBe(url);
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    await tab.close();
  });

  it('moves the legacy browser list to the server once after sign-in, and imports the default links', async () => {
    const { client, page, links } = await trader();
    await page.goto('/intro');
    await page.evaluate(() =>
      localStorage.setItem(
        'trader-quick-links',
        JSON.stringify([
          { title: 'Old charts', url: 'https://charts.example.test', icon: 'chart' },
          { title: 'Bad', url: 'javascript:alert(1)' },
          { title: 'Calendar', url: 'calendar.example.test' },
        ]),
      ),
    );
    await page.goto('/');
    await eventually(async () => (await api<Array<{ title: string }>>(client, 'GET', '/api/quick-links')).map((l) => l.title)).toEqual([
      'Old charts',
      'Calendar',
    ]);
    await eventually(() => page.evaluate(() => localStorage.getItem('trader-quick-links'))).toBeNull();
    // A second load imports nothing more.
    await page.reload();
    await links.addToDashboard();
    await eventually(() => links.titles()).toEqual(['Old charts', 'Calendar']);

    await links.root.getByRole('button', { name: 'Quick link options' }).click();
    await page.getByRole('menuitem', { name: 'Import default links' }).click();
    await eventually(() => links.links.count()).toBeGreaterThan(2);
    expect((await links.titles()).slice(0, 3)).toEqual(['Old charts', 'Calendar', 'TradingView']);
  });
});

describe('accessibility', () => {
  it.each([
    ['dark', 1440],
    ['light', 390],
  ] as const)('trade details and the quick links widget have no serious axe violations (%s, %i px)', async (colorScheme, width) => {
    const { client, page, details, links } = await trader({ colorScheme, width, height: 900 });
    await useAppTheme(page.context(), colorScheme);
    const trade = await seedTrade(client, {
      date: '2025-03-03',
      symbol: 'NQ',
      pnl: -12.5,
      notes: 'note',
      tags: ['A+'],
      link: 'https://x.example.test',
    });
    await api(client, 'POST', '/api/notes', { title: 'Linked', content: '- [x] done\n- [ ] todo', trade_id: trade.id });
    await api(client, 'POST', '/api/attachments', { trade_id: trade.id, url: 'https://charts.example.test/a.png' });
    await details.goto(trade.id);
    await details.linkedNotes.getByTestId('linked-note').waitFor();
    const detailViolations = await seriousA11yViolations(page);
    expect(detailViolations, detailViolations.join('\n')).toEqual([]);

    await api(client, 'POST', '/api/quick-links', { title: 'TradingView', url: 'https://www.tradingview.com/', icon: 'chart' });
    await page.goto('/');
    await links.addToDashboard();
    await links.links.first().waitFor();
    const linkViolations = (await seriousA11yViolations(page)).filter((v) => v.includes('quick-link'));
    expect(linkViolations, linkViolations.join('\n')).toEqual([]);
  });
});
