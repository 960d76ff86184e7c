import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays, getTodayInZone, getWeekOfYear, getStartOfWeekSunday } from '../src/domain/dates';
import { formatUsd } from '../src/domain/money';
import type { ApiClient } from '../tests/support/app';
import { createTrade, listAll } from '../tests/api/trades-support';
import { SearchPalette } from './pages/search-palette';
import { Shell } from './pages/shell';
import { seriousA11yViolations } from './support/a11y';
import { PASSWORD, signedInAccount, type Account } from './support/accounts';
import { eventually, SCREEN_PAIRS, useAppTheme, useE2ESuite, waitForAnimations, type Scenario } from './support/scenario';

/**
 * The dashboard home as a trader meets it in Chromium: the new-trader samples, the PnL calendar against
 * known trades, the day dialog, tasks, the layout saved on the server, Reset Dashboard, the avatar crop and the
 * screenshot download. Screens at phone and desktop widths in both themes are written to SCREENSHOT_DIR (or a
 * temporary directory) and checked with axe.
 */

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-dashboard-'));

const suite = useE2ESuite(() => ({ env: { AUTH_RATE_LIMIT: '1000' } }));
const scenario = suite.scenario.bind(suite);

/** An API session for the same trader as the browser. */
async function apiFor(account: Account): Promise<ApiClient> {
  const client = suite.e2e.app.client();
  const res = await client.signIn(account.email, account.password);
  expect(res.status).toBe(200);
  return client;
}

/** A trader whose onboarding is done and whose sample trades are gone: a clean slate for known trades. */
async function traderWithoutSamples(s: Scenario, prefix: string): Promise<{ account: Account; api: ApiClient }> {
  const account = await signedInAccount(suite.e2e.app, s.context, prefix);
  const api = await apiFor(account);
  await api.post('/api/onboarding');
  const samples = await listAll(api);
  if (samples.length) await api.post('/api/trades/bulk-delete', { ids: samples.map((t) => t.id) });
  return { account, api };
}

/** The dashboard page object. */
class Dashboard {
  readonly shell: Shell;
  constructor(readonly page: Page) {
    this.shell = new Shell(page);
  }

  async goto() {
    await this.shell.goto('/');
    await this.calendarMonth.waitFor();
  }

  get calendarMonth() {
    return this.page.getByTestId('calendar-month');
  }
  get tasks() {
    return this.page.getByTestId('widget-tasks');
  }
  get taskRows() {
    return this.page.getByTestId('task-row');
  }
  day(date: string): Locator {
    return this.page.getByTestId(`calendar-day-${date}`);
  }
  week(row: number): Locator {
    return this.page.getByTestId(`calendar-week-${row}`);
  }
  toast(text: string): Locator {
    return this.page.locator('.mantine-Notification-root').filter({ hasText: text });
  }

  async showMonth(year: number, month: number) {
    const target = new Date(year, month - 1, 1).toLocaleString('en-US', { month: 'long', year: 'numeric' });
    for (let i = 0; i < 60 && (await this.calendarMonth.innerText()) !== target; i++) {
      const [shownMonth = '', shownYear = '0'] = (await this.calendarMonth.innerText()).split(' ');
      const shown = new Date(`${shownMonth} 1, ${shownYear}`);
      const before = shown.getFullYear() * 12 + shown.getMonth() > year * 12 + month - 1;
      await this.page.getByRole('button', { name: before ? 'Previous month' : 'Next month' }).click();
    }
    expect(await this.calendarMonth.innerText()).toBe(target);
  }

  /** Widget ids per rendered column, in order. */
  async columns(): Promise<string[][]> {
    return this.page
      .getByTestId('widget-columns')
      .evaluate((root) =>
        [...root.children].map((column) => [...column.querySelectorAll('[data-widget-id]')].map((el) => el.getAttribute('data-widget-id') ?? '')),
      );
  }

  async statsOrder(): Promise<string[]> {
    return this.page
      .getByTestId('header-stats')
      .evaluate((root) => [...root.children].map((el) => (el.getAttribute('data-testid') ?? '').replace(/^stat-/, '')));
  }

  /** Drags with the mouse in small steps, as dnd-kit's pointer sensor needs. */
  async drag(handle: Locator, target: Locator, where: 'top' | 'center' = 'top') {
    // The pointer only reaches what is on screen; mid-screen, dnd-kit's edge auto-scroll stays still.
    await handle.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const from = (await handle.boundingBox())!;
    const to = (await target.boundingBox())!;
    await this.page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 10, { steps: 4 });
    const y = where === 'top' ? to.y + 12 : to.y + to.height / 2;
    await this.page.mouse.move(to.x + to.width / 2, y, { steps: 20 });
    await this.page.waitForTimeout(150);
    await this.page.mouse.move(to.x + to.width / 2, y + 2, { steps: 2 });
    await this.page.mouse.up();
  }
}

const textOf = async (locator: Locator) => (await locator.innerText()).replace(/\s+/g, ' ').trim();

// The spec's default layout keeps column 0 for the calendar; shown under a full-width calendar, column 2's lower half
// fills the column beside the quick notes.
const DEFAULT_COLUMNS = [
  ['month-winrate', 'monthly-pnl-chart'],
  ['forex-news', 'tasks'],
  ['edgebook-score', 'all-time-winrate'],
];

/** A w x h RGB PNG with a diagonal gradient (a real picture for the cropper to decode). */
function makePng(w: number, h: number): Buffer {
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    raw[y * (w * 3 + 1)] = 0;
    for (let x = 0; x < w; x++) {
      const o = y * (w * 3 + 1) + 1 + x * 3;
      raw[o] = (x * 255) / w;
      raw[o + 1] = (y * 255) / h;
      raw[o + 2] = 128;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(w, 0);
  header.writeUInt32BE(h, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Width and height from a baseline or progressive JPEG's SOF marker. */
function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let i = 2;
  while (i < bytes.length) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1]!;
    const length = bytes.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xc2) return { height: bytes.readUInt16BE(i + 5), width: bytes.readUInt16BE(i + 7) };
    i += 2 + length;
  }
  return null;
}

describe('dashboard', () => {
  it('gives a new trader the sample trades and tasks once: a reload still shows 7 trades and 5 tasks', async () => {
    const s = await scenario();
    const account = await signedInAccount(suite.e2e.app, s.context, 'newbie');
    const dashboard = new Dashboard(s.page);
    await dashboard.goto();
    await expect.poll(() => dashboard.taskRows.count(), { timeout: 30_000 }).toBe(5);
    await expect.poll(async () => textOf(s.page.getByTestId('widget-tradelog-pnl-calendar'))).toContain('7 trades');
    expect(await dashboard.page.getByTestId('welcome-name').innerText()).toBe('Trader');

    await s.page.reload();
    await dashboard.calendarMonth.waitFor();
    await expect.poll(() => dashboard.taskRows.count()).toBe(5);
    await expect.poll(async () => textOf(s.page.getByTestId('widget-tradelog-pnl-calendar'))).toContain('7 trades');
    const api = await apiFor(account);
    expect(await listAll(api)).toHaveLength(7);
    const symbols = new Set((await listAll(api)).map((t) => t.symbol));
    expect(symbols).toEqual(new Set(['NQ', 'ES', 'BTC']));
  });

  it("shows each day's and week's figures equal to the trades, and a day lists its trades", async () => {
    const s = await scenario();
    const { api } = await traderWithoutSamples(s, 'calendar');
    // March 2026 starts on a Sunday: rows are Mar 1-7, 8-14, 15-21, 22-28, 29-Apr 4.
    const seeded = [
      { date: '2026-03-02', symbol: 'NQ', pnl: 100 },
      { date: '2026-03-02', symbol: 'ES', pnl: -40 },
      { date: '2026-03-04', symbol: 'MNQ', pnl: 25.5 },
      { date: '2026-03-10', symbol: 'ES', pnl: -80 },
      { date: '2026-03-10', symbol: 'NQ', pnl: 0 },
      { date: '2026-03-31', symbol: 'YM', pnl: 10 },
      { date: '2026-04-01', symbol: 'NQ', pnl: 999 }, // next month: not in March's row sums
    ];
    for (const t of seeded) await createTrade(api, t);

    const dashboard = new Dashboard(s.page);
    await dashboard.goto();
    await dashboard.showMonth(2026, 3);

    const march = seeded.filter((t) => t.date.startsWith('2026-03'));
    const days = new Map<string, typeof march>();
    for (const t of march) days.set(t.date, [...(days.get(t.date) ?? []), t]);
    for (const [date, trades] of days) {
      const cell = dashboard.day(date);
      const cents = Math.round(trades.reduce((sum, t) => sum + t.pnl, 0) * 100);
      const wins = trades.filter((t) => t.pnl > 0).length;
      const losses = trades.filter((t) => t.pnl < 0).length;
      // A break-even-only day has no win rate: '—', not '0%'.
      const winRate = wins + losses ? `${(Math.round((wins * 1000) / (wins + losses)) / 10).toFixed(1)}%` : '—';
      await expect.poll(() => textOf(cell.getByTestId('day-pnl'))).toBe(formatUsd(cents));
      expect(await textOf(cell.getByTestId('day-trades'))).toBe(`${trades.length} ${trades.length === 1 ? 'trade' : 'trades'}`);
      expect(await textOf(cell.getByTestId('day-winrate'))).toBe(winRate);
      expect(await cell.getAttribute('data-tint')).toBe(cents > 0 ? 'green' : cents < 0 ? 'red' : 'grey');
    }
    // A day without trades shows no figures.
    expect(await dashboard.day('2026-03-03').getByTestId('day-pnl').count()).toBe(0);

    const rows = 5;
    for (let row = 1; row <= rows; row++) {
      const sunday = `2026-03-${String(1 + (row - 1) * 7).padStart(2, '0')}`;
      const inRow = march.filter((t) => getStartOfWeekSunday(t.date) === getStartOfWeekSunday(sunday));
      const cents = Math.round(inRow.reduce((sum, t) => sum + t.pnl, 0) * 100);
      const tradingDays = new Set(inRow.map((t) => t.date)).size;
      const week = dashboard.week(row);
      expect(await textOf(week.getByTestId('week-pnl'))).toBe(formatUsd(cents));
      expect(await textOf(week.getByTestId('week-days'))).toBe(`${tradingDays} ${tradingDays === 1 ? 'day' : 'days'}`);
      expect(await textOf(week)).toContain(`Week ${getWeekOfYear(sunday)}`);
    }
    expect(await dashboard.week(6).count()).toBe(0);
    expect(await textOf(s.page.getByTestId('calendar-month-total'))).toBe('+$15.50');

    // Clicking a day opens its trades.
    await dashboard.day('2026-03-02').click();
    const dialog = s.page.getByRole('dialog', { name: 'Trades on Monday, March 2, 2026' });
    await dialog.waitFor();
    await expect.poll(() => dialog.getByTestId('day-trade-row').count()).toBe(2);
    const symbols = await dialog.getByTestId('day-trade-row').evaluateAll((rs) => rs.map((r) => r.querySelector('a')?.textContent));
    expect(symbols.sort()).toEqual(['ES', 'NQ']);
    expect(await textOf(dialog.getByTestId('day-trades-summary'))).toContain('+$60.00');
    await s.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    // A day without trades is not a button.
    expect(await dashboard.day('2026-03-03').evaluate((el) => el.tagName)).toBe('DIV');
  });

  it('adds a task (Enter, trimmed, button disabled when blank), completes, unchecks and deletes it', async () => {
    const s = await scenario();
    const { api } = await traderWithoutSamples(s, 'tasks');
    const dashboard = new Dashboard(s.page);
    await dashboard.goto();
    const input = dashboard.tasks.getByRole('textbox', { name: 'New task' });
    const add = dashboard.tasks.getByRole('button', { name: 'Add', exact: true });
    await expect.poll(() => dashboard.taskRows.count()).toBe(5);
    await input.fill('   ');
    expect(await add.isDisabled()).toBe(true);

    await input.fill('  Size down after two losses  ');
    expect(await add.isDisabled()).toBe(false);
    await input.press('Enter');
    await dashboard.toast('Task added!').waitFor();
    await expect.poll(() => dashboard.taskRows.count()).toBe(6);
    const row = dashboard.taskRows.filter({ hasText: 'Size down after two losses' });
    expect(await input.inputValue()).toBe('');

    await row.getByRole('button', { name: 'Mark "Size down after two losses" as done' }).click();
    // Each toast replaces the one on screen at once rather than queueing behind it.
    await dashboard.toast('Task completed!').waitFor({ timeout: 2000 });
    await expect.poll(() => row.getAttribute('data-completed')).toBe('true');
    const today = getTodayInZone(new Date(), 'America/New_York');
    const stored = (await api.get(`/api/tasks?date=${today}`)).body.find((t: { title: string }) => t.title === 'Size down after two losses');
    expect(stored).toMatchObject({ completed: true, category: 'Daily' });

    await row.getByRole('button', { name: 'Mark "Size down after two losses" as not done' }).click();
    await dashboard.toast('Task unchecked').waitFor({ timeout: 2000 });
    await expect.poll(() => row.getAttribute('data-completed')).toBe(null);

    await row.getByRole('button', { name: 'Delete "Size down after two losses"' }).click();
    await dashboard.toast('Task deleted!').waitFor({ timeout: 2000 });
    await eventually(() => s.page.locator('.mantine-Notification-root').count()).toBe(1);
    await expect.poll(() => dashboard.taskRows.count()).toBe(5);
    expect((await api.get(`/api/tasks?date=${today}`)).body).toHaveLength(5);
  });

  it('keeps dragged widgets and header stats in their new order after a reload and in a second browser', async () => {
    const s = await scenario({ width: 1440, height: 900 });
    const { account } = await traderWithoutSamples(s, 'layout');
    const dashboard = new Dashboard(s.page);
    await dashboard.goto();
    expect(await dashboard.columns()).toEqual(DEFAULT_COLUMNS);
    // Outside edit mode the widgets have neither drag handles nor remove buttons.
    expect(await s.page.getByRole('button', { name: /^Move / }).count()).toBe(0);
    expect(await s.page.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    await s.page.getByTestId('edit-mode-toggle').click();
    await s.page.getByTestId('edit-overlay-dismiss').click();
    await s.page.getByRole('button', { name: 'Move Edgebook Score', exact: true }).waitFor();
    expect(await s.page.getByRole('button', { name: 'Remove Edgebook Score', exact: true }).count()).toBe(1);

    // The score widget from the top of column 2 to the top of column 1.
    const saved = s.page.waitForResponse((r) => r.url().endsWith('/api/preferences') && r.request().method() === 'PATCH');
    await dashboard.drag(s.page.getByRole('button', { name: 'Move Edgebook Score', exact: true }), s.page.getByTestId('widget-forex-news'));
    expect((await saved).status()).toBe(200);
    const moved = await dashboard.columns();
    expect(moved[1]![0]).toBe('edgebook-score');
    expect(moved[2]).not.toContain('edgebook-score');

    // The win-rate stat onto the welcome card.
    const savedStats = s.page.waitForResponse((r) => r.url().endsWith('/api/preferences') && r.request().method() === 'PATCH');
    await dashboard.drag(
      s.page.getByTestId('header-stats').getByRole('button', { name: 'Move Win Rate', exact: true }),
      s.page.getByTestId('stat-welcome'),
      'center',
    );
    expect((await savedStats).status()).toBe(200);
    const stats = await dashboard.statsOrder();
    expect(stats[0]).toBe('win-rate');

    await s.page.reload();
    await dashboard.calendarMonth.waitFor();
    await expect.poll(() => dashboard.columns()).toEqual(moved);
    expect(await dashboard.statsOrder()).toEqual(stats);

    // Another browser, the same trader: the layout lives on the server.
    const other = await scenario({ width: 1440, height: 900 });
    const client = suite.e2e.app.client();
    expect((await client.signIn(account.email, PASSWORD)).status).toBe(200);
    await other.context.addCookies(
      client.cookieHeader.split('; ').map((pair) => {
        const eq = pair.indexOf('=');
        return { name: pair.slice(0, eq), value: pair.slice(eq + 1), url: suite.e2e.app.url };
      }),
    );
    const second = new Dashboard(other.page);
    await second.goto();
    await expect.poll(() => second.columns()).toEqual(moved);
    expect(await second.statsOrder()).toEqual(stats);

    // Reset Dashboard asks first, then restores the default, here and for the other browser.
    await s.page.getByRole('button', { name: 'Reset Dashboard' }).click();
    const confirm = s.page.getByRole('dialog', { name: 'Reset Dashboard' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await dashboard.columns()).toEqual(moved);
    await s.page.getByRole('button', { name: 'Reset Dashboard' }).click();
    await confirm.getByTestId('confirm-layout-action').click();
    await expect.poll(() => dashboard.columns()).toEqual(DEFAULT_COLUMNS);
    expect(await dashboard.statsOrder()).toEqual(['welcome', 'monthly-pnl', 'profit-factor', 'win-rate']);
    await other.page.reload();
    await second.calendarMonth.waitFor();
    await expect.poll(() => second.columns()).toEqual(DEFAULT_COLUMNS);
  });

  it('clears widgets only after confirming, adds one back, and resets from the search palette', async () => {
    const s = await scenario({ width: 1440, height: 900 });
    await traderWithoutSamples(s, 'clear');
    const dashboard = new Dashboard(s.page);
    await dashboard.goto();
    await s.page.getByRole('button', { name: 'Clear widgets' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Clear widgets' });
    await dialog.getByTestId('confirm-layout-action').click();
    await expect.poll(() => dashboard.columns()).toEqual([[], [], []]);
    expect(await dashboard.calendarMonth.count()).toBe(0);

    await s.page.getByRole('button', { name: 'Add widget' }).click();
    await s.page.getByRole('menuitem', { name: 'Trading Tasks' }).click();
    await expect.poll(() => dashboard.columns()).toEqual([[], ['tasks'], []]);

    const palette = new SearchPalette(s.page);
    await palette.openWithShortcut();
    await palette.search('Reset');
    await palette.entry('reset-dashboard').click();
    await s.page.getByRole('dialog', { name: 'Reset Dashboard' }).getByTestId('confirm-layout-action').click();
    await expect.poll(() => dashboard.columns()).toEqual(DEFAULT_COLUMNS);
    await dashboard.calendarMonth.waitFor();
  });

  it('crops and uploads a new picture (200x200 JPEG) and shows it; refuses a text file', async () => {
    const s = await scenario();
    const { api } = await traderWithoutSamples(s, 'avatar');
    const dashboard = new Dashboard(s.page);
    await dashboard.goto();
    await s.page.getByRole('button', { name: 'Profile settings' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Profile Settings' });
    const fileInput = dialog.locator('input[type="file"]');
    await fileInput.waitFor({ state: 'attached' });
    // One fallback name, the greeting's (Profile Settings said 'User'); the dialog opens on its first field.
    expect(await dialog.getByTestId('profile-dialog-avatar').innerText()).toBe('T');
    expect(await dialog.getByText('Trader', { exact: true }).count()).toBe(1);
    expect(await dialog.getByText('User', { exact: true }).count()).toBe(0);
    await eventually(() =>
      s.page.evaluate(
        () => (document.activeElement as HTMLInputElement | null)?.closest('.mantine-InputWrapper-root')?.querySelector('label')?.textContent,
      ),
    ).toBe('Display Name');

    await fileInput.setInputFiles({ name: 'notes.png', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    expect(await textOf(dialog.getByTestId('avatar-file-error'))).toBe('Please upload a valid image file (JPEG, PNG, WebP, or GIF)');

    await fileInput.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: makePng(320, 240) });
    await dialog.getByTestId('avatar-cropper').locator('img').waitFor();
    // The zoom slider is named, with its value (it had neither).
    const zoom = dialog.getByRole('slider', { name: 'Zoom' });
    expect(await zoom.getAttribute('aria-valuetext')).toBe('1.00x');
    await dialog.getByRole('button', { name: 'Zoom in' }).click();
    await eventually(() => zoom.getAttribute('aria-valuetext')).toBe('1.20x');
    const media = dialog.getByTestId('avatar-cropper');
    const box = (await media.boundingBox())!;
    await s.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await s.page.mouse.down();
    await s.page.mouse.move(box.x + box.width / 2 + 30, box.y + box.height / 2 + 10, { steps: 5 });
    await s.page.mouse.up();
    await dialog.getByRole('button', { name: 'Save picture' }).click();
    await dashboard.toast('Profile picture updated successfully!').waitFor();

    const profile = (await api.get('/api/profile')).body;
    expect(profile.profile_picture_url).toMatch(/^\/api\/profile\/avatar\/avatar-\d+\.jpg$/);
    const avatar = s.page.getByTestId('welcome-avatar').locator('img');
    await expect.poll(() => avatar.getAttribute('src')).toBe(profile.profile_picture_url);
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(200);
    const stored = await api.request('GET', profile.profile_picture_url);
    expect(stored.headers.get('content-type')).toBe('image/jpeg');
    expect(jpegSize(Buffer.from(await stored.arrayBuffer()))).toEqual({ width: 200, height: 200 });
  });

  it('captures the dashboard and downloads it as a PNG; the share links carry the hashtags', async () => {
    const s = await scenario();
    await traderWithoutSamples(s, 'share');
    const dashboard = new Dashboard(s.page);
    await dashboard.goto();
    await s.page.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Share your dashboard' });
    await dialog.getByRole('img', { name: 'Preview of your dashboard' }).waitFor({ timeout: 30_000 });

    const downloading = s.page.waitForEvent('download');
    await dialog.getByTestId('screenshot-download').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^edgebook-dashboard-\d{4}-\d{2}-\d{2}\.png$/);
    const file = fs.readFileSync((await download.path())!);
    expect([...file.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(file.length).toBeGreaterThan(10_000);

    await dialog.getByLabel('Hashtags').fill('futures, #NQ daytrading');
    expect(await textOf(dialog.getByTestId('share-text'))).toBe('My trading dashboard on Edgebook #futures #NQ #daytrading');
    const x = await dialog.getByRole('link', { name: 'Share on X' }).getAttribute('href');
    expect(new URL(x!).searchParams.get('text')).toBe('My trading dashboard on Edgebook #futures #NQ #daytrading');

    // Its close button has a name (a screen reader heard 'button').
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('phone: draws the charts below the fold as they come near, and the screenshot holds them all', async () => {
    const s = await scenario({ width: 390, height: 844 });
    const { api } = await traderWithoutSamples(s, 'lazy-charts');
    const today = getTodayInZone(new Date(), 'America/New_York');
    for (const pnl of [120, -45]) await createTrade(api, { date: today, symbol: 'NQ', pnl });
    const dashboard = new Dashboard(s.page);
    await dashboard.goto();
    await s.page.waitForLoadState('networkidle');
    const drawn = (widget: string) => s.page.getByTestId(`widget-${widget}`).locator('svg.recharts-surface').count();
    // Loaded with the charts' code arriving after the first paint, the charts far below would have been drawn by now.
    await s.page.waitForTimeout(1000);
    const below = ['month-winrate', 'monthly-pnl-chart'];
    for (const widget of below) expect(await drawn(widget), widget).toBe(0);

    await s.page.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Share your dashboard' });
    await dialog.getByRole('img', { name: 'Preview of your dashboard' }).waitFor({ timeout: 30_000 });
    for (const widget of below) expect(await drawn(widget), widget).toBe(1);

    await dashboard.goto();
    await s.page.waitForLoadState('networkidle');
    expect(await drawn('month-winrate')).toBe(0);
    await s.page.getByTestId('widget-month-winrate').scrollIntoViewIfNeeded();
    await eventually(() => drawn('month-winrate')).toBe(1);
  });

  it('starts its data requests while the session check is still out', async () => {
    const s = await scenario();
    await traderWithoutSamples(s, 'parallel');
    const dashboard = new Dashboard(s.page);
    // The first visit marks this browser as signed in; the next load starts the data requests at once.
    await dashboard.goto();
    let sessionAnswered = false;
    const beforeSession: string[] = [];
    s.page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (!sessionAnswered && pathname.startsWith('/api/') && !pathname.startsWith('/api/auth/')) beforeSession.push(pathname);
    });
    // Hold the session check for a second: requests issued meanwhile did not wait for it.
    await s.page.route('**/api/auth/get-session*', async (route) => {
      await new Promise((r) => setTimeout(r, 1000));
      sessionAnswered = true;
      await route.continue();
    });
    await s.page.reload();
    await dashboard.calendarMonth.waitFor();
    expect(beforeSession).toEqual(expect.arrayContaining(['/api/trades/stats', '/api/preferences', '/api/accounts', '/api/profile']));
    // The page then uses those answers: the month total is drawn.
    await s.page.getByTestId('calendar-month-total').waitFor();
  });

  it('tries the session check again on network errors, 3 times at 1, 2 and 3 s, then offers Retry', async () => {
    const s = await scenario();
    await traderWithoutSamples(s, 'session-retry');
    const dashboard = new Dashboard(s.page);
    await dashboard.goto();
    // Two failures, then the server answers: the dashboard shows, with no connection screen on the way.
    const attempts: number[] = [];
    let failures = 2;
    await s.page.route('**/api/auth/get-session*', async (route) => {
      attempts.push(Date.now());
      if (failures-- > 0) await route.abort('connectionrefused');
      else await route.continue();
    });
    await s.page.reload();
    await dashboard.calendarMonth.waitFor();
    expect(attempts).toHaveLength(3);
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(900);
    expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(1900);
    expect(await s.page.getByTestId('session-retry').count()).toBe(0);

    // The server stays away: the first check and 3 retries, then the connection screen; Retry goes in once it is back.
    attempts.length = 0;
    failures = 4;
    await s.page.reload();
    await s.page.getByRole('heading', { name: 'Cannot reach the Edgebook server' }).waitFor({ timeout: 15_000 });
    expect(attempts).toHaveLength(4);
    expect(attempts[3]! - attempts[2]!).toBeGreaterThanOrEqual(2900);
    await s.page.getByTestId('session-retry').click();
    await dashboard.calendarMonth.waitFor();
    expect(attempts).toHaveLength(5);
  });

  it('opens collapsed on the dashboard without moving the page when it arrives', async () => {
    const s = await scenario({ width: 1440, height: 900 });
    await traderWithoutSamples(s, 'no-shift');
    const dashboard = new Dashboard(s.page);
    await dashboard.goto();
    // The trader left the sidebar open elsewhere; the dashboard collapses it at load.
    await s.page.evaluate(() => window.localStorage.setItem('sidebar-collapsed', 'false'));
    await s.page.addInitScript(() => {
      const w = window as unknown as { shifts: number; openAtPaint: boolean | null };
      w.shifts = 0;
      w.openAtPaint = null;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean }>) if (!e.hadRecentInput) w.shifts += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
      new MutationObserver(() => {
        const sidebar = document.querySelector('[data-testid="sidebar"]');
        if (sidebar && w.openAtPaint === null) w.openAtPaint = sidebar.getAttribute('data-collapsed') === 'false';
      }).observe(document, { childList: true, subtree: true, attributes: true });
    });
    await s.page.reload();
    await s.page.getByTestId('calendar-month-total').waitFor();
    await s.page.waitForLoadState('networkidle');
    const seen = await s.page.evaluate(() => {
      const w = window as unknown as { shifts: number; openAtPaint: boolean | null };
      return { shifts: w.shifts, openAtPaint: w.openAtPaint };
    });
    expect(seen.openAtPaint).toBe(false);
    expect(await s.page.getByTestId('sidebar').getAttribute('data-collapsed')).toBe('true');
    expect(seen.shifts).toBeLessThan(0.01);
  });

  it("lists the week ahead as 'This Week' on a Sunday, and no raw 'a|b' values", async () => {
    const s = await scenario({ width: 1440, height: 900 });
    await traderWithoutSamples(s, 'events');
    // Sunday 2026-03-08, noon in New York: the trading week ahead runs Monday 9 to Friday 13 March.
    await s.page.clock.install({ time: new Date('2026-03-08T16:00:00Z') });
    const dashboard = new Dashboard(s.page);
    await dashboard.goto();
    const widget = s.page.getByTestId('widget-forex-news');
    await widget.getByTestId('economic-event').first().waitFor();
    const text = await widget.innerText();
    expect(text).toContain('MON, MAR 9');
    expect(text).toContain('FRI, MAR 13');
    expect(text).not.toContain('MAR 2');
    expect(text).not.toContain('|');
  });

  it.each(['/', '/trade-log'])('signs out from %s without a single request the ended session refuses', async (from) => {
    const s = await scenario({ width: 1440, height: 900 });
    await signedInAccount(suite.e2e.app, s.context, 'signout');
    const shell = new Shell(s.page);
    await shell.goto(from);
    await s.page.waitForLoadState('networkidle');
    const refused: string[] = [];
    s.page.on('response', (r) => {
      if (r.status() === 401) refused.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
    });
    await shell.openLogoutDialog();
    await shell.logoutConfirm.click();
    await s.page.waitForURL('**/intro');
    await s.page.waitForLoadState('networkidle');
    await s.page.waitForTimeout(500);
    expect(refused).toEqual([]);
  });

  it('scrolls to a dashboard anchor from the URL', async () => {
    const s = await scenario({ width: 1280, height: 700 });
    await traderWithoutSamples(s, 'anchor');
    await s.page.goto('/#trading-tasks');
    await s.page.getByTestId('calendar-month').waitFor();
    await eventually(() => s.page.locator('#trading-tasks').evaluate((el) => Math.abs(el.getBoundingClientRect().top) < 200)).toBe(true);
  });
});

describe.each(['dark', 'light'] as const)('dashboard finish in the %s theme', (theme) => {
  const themed = (s: Scenario) => useAppTheme(s.context, theme);

  it('phone: calendar losses show whole like wins, and the day dialog shows Result and PnL without scrolling sideways', async () => {
    const s = await scenario({ width: 390, height: 844 });
    await themed(s);
    const { api } = await traderWithoutSamples(s, `phone-${theme}`);
    for (const t of [
      { date: '2026-03-02', symbol: 'NQ', pnl: 421 },
      { date: '2026-03-03', symbol: 'ES', pnl: -451.37, trade_type: 'A/A+' },
      { date: '2026-03-04', symbol: 'NQ', pnl: -1234.56 },
      { date: '2026-03-05', symbol: 'YM', pnl: 0 },
    ])
      await createTrade(api, t);
    const dashboard = new Dashboard(s.page);
    await dashboard.goto();
    await dashboard.showMonth(2026, 3);
    const expected = { '2026-03-02': '$421', '2026-03-03': '-$451', '2026-03-04': '-$1.2k', '2026-03-05': '$0' };
    for (const [date, text] of Object.entries(expected)) {
      const pnl = dashboard.day(date).getByTestId('day-pnl');
      await expect.poll(() => textOf(pnl)).toBe(text);
      // Shown whole: the text fits its box, no ellipsis.
      expect(await pnl.evaluate((el) => el.scrollWidth <= el.clientWidth), `${date} ${text}`).toBe(true);
    }
    await dashboard.calendarMonth.scrollIntoViewIfNeeded();
    await waitForAnimations(s.page);
    await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `issue14-calendar-phone-${theme}.png`) });

    await dashboard.day('2026-03-03').click();
    const dialog = s.page.getByRole('dialog', { name: 'Trades on Tuesday, March 3, 2026' });
    await dialog.waitFor();
    const row = dialog.getByTestId('day-trade-row');
    await row.waitFor();
    expect(await textOf(row)).toContain('-$451.37');
    expect(await textOf(row.getByTestId('day-trade-details'))).toContain('A/A+');
    for (const cell of [row.getByText('Loss', { exact: true }), row.getByTestId('day-trade-pnl')]) {
      const box = (await cell.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    const table = dialog.getByTestId('day-trades-table');
    expect(await table.evaluate((el) => el.scrollWidth <= (el.parentElement?.clientWidth ?? 0) + 1)).toBe(true);
    await waitForAnimations(s.page);
    await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `issue14-day-dialog-phone-${theme}.png`) });
  });

  it('the narrowest phone (320 px): the top bar, the toolbar and every day’s amount, trade count and win rate fit, rounded; a month a year back is three clicks away', async () => {
    const s = await scenario({ width: 320, height: 700 });
    await themed(s);
    const { api } = await traderWithoutSamples(s, `narrow-${theme}`);
    // The same month a year ago; its first Monday starts a calendar row that holds Monday to Wednesday.
    const today = getTodayInZone(new Date(), 'America/New_York');
    const monthStart = `${Number(today.slice(0, 4)) - 1}${today.slice(4, 7)}-01`;
    let monday = monthStart;
    while (new Date(`${monday}T12:00:00Z`).getUTCDay() !== 1) monday = addDays(monday, 1);
    const [tue, wed, nextMon, nextTue] = [addDays(monday, 1), addDays(monday, 2), addDays(monday, 7), addDays(monday, 8)];
    for (const [date, pnl] of [
      [monday, 1791.9],
      [tue, 2700],
      [tue, -310],
      [wed, 3008.4],
      [nextMon, -0.4],
      [nextTue, 0],
    ] as const) {
      await createTrade(api, { date, symbol: 'NQ', pnl });
    }
    const dashboard = new Dashboard(s.page);
    await dashboard.goto();

    // The month and year picker: open it, a year back, the month.
    const [year, month] = [Number(monthStart.slice(0, 4)), Number(monthStart.slice(5, 7))];
    const monthName = new Date(Date.UTC(year, month - 1, 15)).toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
    await s.page.getByTestId('calendar-month-button').click();
    const picker = s.page.getByTestId('calendar-month-picker');
    await picker.waitFor();
    expect(await s.page.evaluate(() => document.activeElement?.hasAttribute('data-selected'))).toBe(true);
    const pickerBox = (await picker.boundingBox())!;
    expect(pickerBox.x + pickerBox.width).toBeLessThanOrEqual(320);
    await waitForAnimations(s.page);
    const violations = await seriousA11yViolations(s.page);
    expect(violations, violations.join('\n')).toEqual([]);
    await picker.getByRole('button', { name: 'Previous year' }).click();
    await picker.getByRole('button', { name: monthName, exact: true }).click();
    await picker.waitFor({ state: 'hidden' });
    expect(await dashboard.calendarMonth.innerText()).toBe(
      new Date(Date.UTC(year, month - 1, 15)).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
    );
    expect(await s.page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('calendar-month-button');

    // Rounded, never cut; no sign on an amount that rounds to nothing ('$1.7k', '$7.1k', '-$0').
    const expected: Record<string, [string, string, string]> = {
      [monday]: ['$1.8k', '1 tr', '100%'],
      [tue]: ['$2.4k', '2 tr', '50%'],
      [wed]: ['$3.0k', '1 tr', '100%'],
      [nextMon]: ['$0', '1 tr', '0%'],
      [nextTue]: ['$0', '1 tr', '—'],
    };
    await expect.poll(() => textOf(dashboard.day(monday).getByTestId('day-pnl'))).toBe('$1.8k');
    for (const [date, [pnl, trades, winRate]] of Object.entries(expected)) {
      const cell = dashboard.day(date);
      const shown = await cell.evaluate((el) => {
        const visible = (testId: string) => {
          const part = el.querySelector(`[data-testid="${testId}"]`)!;
          return (part.querySelector('[aria-hidden="true"]') ?? part).textContent ?? '';
        };
        const inside = (testId: string) => {
          const part = el.querySelector(`[data-testid="${testId}"]`)!;
          const range = document.createRange();
          range.selectNodeContents(part.querySelector('[aria-hidden="true"]') ?? part);
          const text = range.getBoundingClientRect();
          const box = el.getBoundingClientRect();
          return text.left >= box.left - 0.5 && text.right <= box.right + 0.5 && text.bottom <= box.bottom + 0.5;
        };
        return {
          pnl: visible('day-pnl'),
          trades: visible('day-trades'),
          winRate: visible('day-winrate'),
          fits: ['day-pnl', 'day-trades', 'day-winrate'].every(inside),
        };
      });
      expect(shown, date).toEqual({ pnl, trades, winRate, fits: true });
    }
    // A screen reader hears the words in full.
    expect(
      await dashboard
        .day(tue)
        .getByTestId('day-trades')
        .evaluate((el) => el.textContent),
    ).toContain('2 trades');
    expect(
      await dashboard
        .day(tue)
        .getByTestId('day-winrate')
        .evaluate((el) => el.textContent),
    ).toContain('50.0% win rate');
    const firstWeek = s.page.locator('[data-testid^="calendar-week-"]').filter({ has: s.page.getByText('$7.2k', { exact: true }) });
    expect(await firstWeek.count()).toBe(1);
    expect(await s.page.getByText('-$0', { exact: true }).count()).toBe(0);

    // Nothing scrolls sideways, and the bar's last button and the calendar's Add Trade are on screen.
    expect(await s.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    for (const target of [s.page.getByTestId('edit-mode-toggle'), s.page.getByRole('button', { name: 'Add Trade' }).first()]) {
      const box = (await target.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(320);
    }
    // The clock keeps the date and the time; the weekday is what gives way.
    expect(await textOf(s.page.getByTestId('top-bar-time'))).toMatch(/^\d{2}:\d{2}$/);
    expect(await s.page.getByTestId('top-bar-date').evaluate((el) => (el as HTMLElement).innerText.trim())).toMatch(/^\d{2} [A-Z][a-z]{2}$/);
    await dashboard.calendarMonth.scrollIntoViewIfNeeded();
    await waitForAnimations(s.page);
    await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `issue24-calendar-320-${theme}.png`) });
  });

  it("phone: the calendar's week column ('W11', '$538', '3 days') shows whole inside the card, padded like the day cells", async () => {
    const s = await scenario({ width: 390, height: 844 });
    await themed(s);
    const { api } = await traderWithoutSamples(s, `week-column-${theme}`);
    // March 2026: the week of the 8th makes $538 on 3 days, the week of the 15th loses $1,234.56 on 1 day.
    for (const t of [
      { date: '2026-03-09', symbol: 'NQ', pnl: 421 },
      { date: '2026-03-10', symbol: 'ES', pnl: 100 },
      { date: '2026-03-11', symbol: 'YM', pnl: 17 },
      { date: '2026-03-17', symbol: 'NQ', pnl: -1234.56 },
    ])
      await createTrade(api, t);
    const dashboard = new Dashboard(s.page);
    await dashboard.goto();
    await dashboard.showMonth(2026, 3);
    const week = dashboard.week(2);
    await expect.poll(() => textOf(week)).toBe('W11 $538 3 days');
    expect(await textOf(dashboard.week(3))).toBe('W12 -$1.2k 1 day');
    await dashboard.calendarMonth.scrollIntoViewIfNeeded();
    await waitForAnimations(s.page);
    await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `issue14-calendar-week-phone-${theme}.png`) });

    const card = s.page.getByTestId('widget-tradelog-pnl-calendar');
    const cells = s.page.locator('[data-testid^="calendar-week-"]');
    expect(await cells.count()).toBe(5);
    // Each piece of text's own box (a range over its text, wider than its span when clipped), against the card's
    // content box and the week cell's: nothing past the card's padding, nothing in the cell's own padding.
    const outside = await card.evaluate((cardEl) => {
      const inner = (el: Element) => {
        const r = el.getBoundingClientRect();
        const cs = getComputedStyle(el);
        const px = (v: string) => parseFloat(v) || 0;
        return {
          left: r.left + px(cs.borderLeftWidth) + px(cs.paddingLeft),
          right: r.right - px(cs.borderRightWidth) - px(cs.paddingRight),
        };
      };
      const cardBox = inner(cardEl);
      const problems: string[] = [];
      for (const cell of cardEl.querySelectorAll('[data-testid^="calendar-week-"]')) {
        const cellBox = inner(cell);
        for (const span of cell.children) {
          const range = document.createRange();
          range.selectNodeContents(span);
          const text = range.getBoundingClientRect();
          const where = `${cell.getAttribute('data-testid')} '${span.textContent}'`;
          if (text.left < cardBox.left - 0.5 || text.right > cardBox.right + 0.5)
            problems.push(`${where} outside the card (${text.right} > ${cardBox.right})`);
          if (text.left < cellBox.left - 0.5 || text.right > cellBox.right + 0.5)
            problems.push(`${where} past its cell's padding (${text.right} > ${cellBox.right})`);
        }
      }
      return problems;
    });
    expect(outside).toEqual([]);
    // The same inner padding as the day cells.
    const padding = (locator: Locator) =>
      locator.evaluate((el) => {
        const cs = getComputedStyle(el);
        return [cs.paddingTop, cs.paddingRight, cs.paddingBottom, cs.paddingLeft].join(' ');
      });
    expect(await padding(week)).toBe(await padding(dashboard.day('2026-03-09')));
  });
});

describe('trading mode', () => {
  it.each(SCREEN_PAIRS)(
    '$name, $theme: trading mode keeps tasks, notes and events and hides every money figure until it ends',
    async ({ name, width, height, theme }) => {
      const s = await scenario({ width, height });
      await useAppTheme(s.context, theme);
      const { api } = await traderWithoutSamples(s, `focus-${name}-${theme}`);
      await createTrade(api, { date: getTodayInZone(new Date(), 'America/New_York'), symbol: 'NQ', pnl: 250 });
      const dashboard = new Dashboard(s.page);
      await dashboard.goto();
      const money = () =>
        s.page
          .locator(
            '[data-testid="widget-tradelog-pnl-calendar"], [data-testid^="header-stats"], [data-testid="widget-monthly-pnl-chart"], [data-testid="widget-all-time-winrate"]',
          )
          .count();
      expect(await money()).toBeGreaterThan(0);

      await s.page.getByTestId('trading-mode-toggle').click();
      await s.page.getByTestId('trading-mode-notice').waitFor();
      await eventually(() => s.page.getByTestId('trading-mode-overlay').count()).toBe(0);
      expect(await money()).toBe(0);
      for (const kept of ['widget-tasks', 'quick-notes', 'widget-forex-news']) expect(await s.page.getByTestId(kept).isVisible(), kept).toBe(true);
      // The app's own text (recharts leaves a hidden measuring span on the body).
      expect((await s.page.locator('#root').innerText()).match(/.{0,80}\$\d.{0,20}/s)?.[0]).toBeUndefined();
      await waitForAnimations(s.page);
      await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `issue14-trading-mode-${name}-${theme}.png`), fullPage: true });

      // The Trade Log's figures are blurred while it lasts (moving inside the app: a reload ends trading mode).
      const go = async (item: 'dashboard' | 'trade-log') => {
        if (name === 'phone') await dashboard.shell.mobileNavToggle.click();
        await dashboard.shell.nav(item).click();
      };
      await go('trade-log');
      const pnl = s.page.getByTestId('trade-pnl').first();
      await pnl.waitFor();
      expect(await pnl.evaluate((el) => getComputedStyle(el).filter)).toContain('blur');

      // Leaving it brings everything back.
      await s.page.getByTestId('trading-mode-toggle').click();
      expect(await pnl.evaluate((el) => getComputedStyle(el).filter)).toBe('none');
      await go('dashboard');
      await dashboard.calendarMonth.waitFor();
      expect(await money()).toBeGreaterThan(0);
      expect(await s.page.getByTestId('trading-mode-notice').count()).toBe(0);
    },
  );
});

describe('dashboard figures', () => {
  it("says '1 win · 1 loss', and '—' rather than 0% when nothing was won or lost", async () => {
    const s = await scenario({ width: 1440, height: 900 });
    const { api } = await traderWithoutSamples(s, 'wording');
    const dashboard = new Dashboard(s.page);
    await dashboard.goto();
    const card = s.page.getByTestId('widget-all-time-winrate');
    await card.getByText('All', { exact: true }).click();
    // No trades at all: no rate, not 0%.
    await eventually(() => textOf(card.getByTestId('winrate-card-value'))).toBe('—');
    await eventually(() => textOf(s.page.getByTestId('month-winrate-value'))).toBe('—');

    const today = getTodayInZone(new Date(), 'America/New_York');
    for (const pnl of [120, -80, 0]) await createTrade(api, { date: today, symbol: 'NQ', pnl });
    await s.page.reload();
    await dashboard.calendarMonth.waitFor();
    await card.getByText('All', { exact: true }).click();
    await eventually(() => textOf(card.getByTestId('winrate-card-counts'))).toBe('1 win · 1 loss');
    expect(await textOf(card.getByTestId('winrate-card-value'))).toBe('50.0%');

    // A month without trades reads '—' under the pointer and to a screen reader, not '0.0%'.
    const monthly = s.page.getByTestId('widget-month-winrate');
    await monthly.scrollIntoViewIfNeeded();
    const rows = () =>
      monthly
        .getByTestId('chart-table')
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent).slice(1)));
    await eventually(rows).toEqual([...Array.from({ length: 5 }, () => ['—', '0']), ['50.0%', '2']]);
    const plot = (await monthly.locator('svg.recharts-surface').boundingBox())!;
    // The first month's slot, right of the 54 px axis.
    await s.page.mouse.move(plot.x + 54 + (plot.width - 54) / 12, plot.y + plot.height * 0.6, { steps: 5 });
    const tooltip = monthly.locator('.recharts-tooltip-wrapper');
    await eventually(() => tooltip.evaluate((el) => getComputedStyle(el).visibility)).toBe('visible');
    expect(await textOf(tooltip)).toMatch(/^[A-Z][a-z]{2} Win rate —$/);
  });

  it.each([
    ['dark', 1440, 900],
    ['light', 390, 844],
  ] as const)("writes one win rate one way on the dashboard and in the Trade Log ('39%' beside '39.0'), %s %i px", async (theme, width, height) => {
    const s = await scenario({ width, height, colorScheme: theme });
    await useAppTheme(s.context, theme);
    const { api } = await traderWithoutSamples(s, 'winfmt');
    const today = getTodayInZone(new Date(), 'America/New_York');
    // 3 wins and 2 losses: 60.0%, a whole number that a second format would write as '60%'. Three of them long ago
    // (All counts them too, though the dashboard reads per-day rows of recent days only); this month 1 of 2, 50.0%.
    const longAgo = addDays(today, -200);
    for (const pnl of [120, -50]) await createTrade(api, { date: today, symbol: 'NQ', pnl });
    for (const pnl of [80, 40, -30]) await createTrade(api, { date: longAgo, symbol: 'NQ', pnl });
    const dashboard = new Dashboard(s.page);
    await dashboard.goto();
    const card = s.page.getByTestId('widget-all-time-winrate');
    await card.getByText('All', { exact: true }).click();
    await eventually(() => textOf(card.getByTestId('winrate-card-value'))).toBe('60.0%');
    expect(await textOf(s.page.getByTestId('score-part-win-rate'))).toBe('60.0%');
    expect(await textOf(s.page.getByTestId('month-winrate-value'))).toBe('50.0%');
    if (width >= 1024) expect(await textOf(s.page.getByTestId('win-rate-value'))).toBe('60.0%');

    await s.page.goto('/trade-log');
    await eventually(() => textOf(s.page.getByTestId('stat-win-rate'))).toBe('60.0%');
  });
});

describe.each(['dark', 'light'] as const)('dashboard screens in the %s theme', (theme) => {
  it.each([
    ['phone', 375, 812],
    ['desktop', 1440, 900],
  ] as const)('%s: no serious axe violations; screenshot written', async (name, width, height) => {
    const s = await scenario({ width, height });
    await useAppTheme(s.context, theme);
    await signedInAccount(suite.e2e.app, s.context, `screen-${name}`);
    const dashboard = new Dashboard(s.page);
    await dashboard.goto();
    // The screens are checked once the widgets have their data (the 7 samples and 5 tasks are asserted above).
    await s.page.getByTestId('task-list').waitFor();
    await expect.poll(() => s.page.getByLabel('Loading tasks').count(), { timeout: 30_000 }).toBe(0);
    await s.page.getByTestId('economic-event').first().waitFor();
    if (name === 'phone') {
      await s.page.getByTestId('header-stats-carousel').waitFor();
      await s.page.getByRole('button', { name: 'Next stat' }).click();
      await s.page.getByTestId('stat-monthly-pnl').waitFor();
      expect(await s.page.getByTestId('calendar-month-summary').isVisible()).toBe(true);
    } else {
      await s.page.getByTestId('header-stats').waitFor();
    }
    await waitForAnimations(s.page);
    await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `dashboard-${name}-${theme}.png`), fullPage: true });
    const violations = await seriousA11yViolations(s.page);
    expect(violations, violations.join('\n')).toEqual([]);
  });
});

describe('dashboard empty and break-even figures', () => {
  it.each(SCREEN_PAIRS)(
    "$name, $theme: an account without trades shows '—' for its profit factor and score, and figures once it has trades",
    async ({ name, width, height, theme }) => {
      const s = await scenario({ width, height });
      await useAppTheme(s.context, theme);
      const { api } = await traderWithoutSamples(s, `empty-${name}-${theme}`);
      const dashboard = new Dashboard(s.page);
      await dashboard.goto();
      await s.page.waitForLoadState('networkidle');
      const profitFactor = s.page.getByTestId('profit-factor-value');
      // On a phone the header stats are a carousel: show the Profit Factor slide.
      if (name === 'phone') await s.page.getByRole('button', { name: 'Show Profit Factor' }).click();
      const score = s.page.getByTestId('widget-edgebook-score');
      await score.scrollIntoViewIfNeeded();
      const figures = async () => ({
        profitFactor: await textOf(profitFactor),
        score: await textOf(score.getByTestId('score-value')),
        winRate: await textOf(score.getByTestId('score-part-win-rate')),
        consistency: await textOf(score.getByTestId('score-part-consistency')),
        profitFactorScore: await textOf(score.getByTestId('score-part-profit-factor')),
      });
      // No trades: no figure at all, as the Trade Log's statistics say it (not '0.00' and '0.0').
      await eventually(figures).toEqual({ profitFactor: '—', score: '—', winRate: '—', consistency: '—', profitFactorScore: '—' });
      await waitForAnimations(s.page);
      await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `finish-empty-score-${name}-${theme}.png`), fullPage: true });
      await score.screenshot({ path: path.join(SCREENSHOT_DIR, `finish-empty-score-widget-${name}-${theme}.png`) });
      await s.page
        .getByTestId('stat-profit-factor')
        .screenshot({ path: path.join(SCREENSHOT_DIR, `finish-empty-profit-factor-${name}-${theme}.png`) });

      // With trades the figures are the domain's, unchanged: $120 won and $80 lost is a profit factor of 1.50.
      const today = getTodayInZone(new Date(), 'America/New_York');
      for (const pnl of [120, -80]) await createTrade(api, { date: today, symbol: 'NQ', pnl });
      await s.page.reload();
      await dashboard.calendarMonth.waitFor();
      if (name === 'phone') await s.page.getByRole('button', { name: 'Show Profit Factor' }).click();
      await eventually(() => textOf(profitFactor)).toBe('1.50');
      const shown = await figures();
      expect(shown.winRate).toBe('50.0%');
      for (const figure of [shown.score, shown.consistency, shown.profitFactorScore]) expect(figure).toMatch(/^\d+\.\d$/);
    },
  );

  it.each(SCREEN_PAIRS)(
    "$name, $theme: a break-even-only day has no win rate ('—'), and one trade is '1 trade · 1 trading day'",
    async ({ name, width, height, theme }) => {
      const s = await scenario({ width, height });
      await useAppTheme(s.context, theme);
      const { api } = await traderWithoutSamples(s, `be-day-${name}-${theme}`);
      await createTrade(api, { date: '2026-03-05', symbol: 'YM', pnl: 0 });
      const dashboard = new Dashboard(s.page);
      await dashboard.goto();
      await dashboard.showMonth(2026, 3);
      const day = dashboard.day('2026-03-05');
      await eventually(() => textOf(day.getByTestId('day-pnl'))).toBe(name === 'phone' ? '$0' : '$0.00');
      if (name === 'desktop') {
        await eventually(() => textOf(day.getByTestId('day-winrate'))).toBe('—');
        // The footer under the month counts in the singular for one ('1 trades · 1 trading days').
        const footer = s.page.getByTestId('calendar-month-total').locator('xpath=..');
        expect(await textOf(footer)).toBe('1 trade · 1 trading day $0.00');
      } else {
        // A phone's cell gives its win rate too, in fewer letters, and so does the month summary.
        expect(await day.getByTestId('day-winrate').locator('[aria-hidden="true"]').textContent()).toBe('—');
        expect(await textOf(s.page.getByTestId('calendar-month-summary'))).toContain('Win rate —');
      }
      expect(await textOf(dashboard.calendarMonth.locator('xpath=ancestor::*[@data-testid="widget-tradelog-pnl-calendar"]'))).not.toMatch(
        /\b0(\.0)?%/,
      );
      await dashboard.calendarMonth.scrollIntoViewIfNeeded();
      await waitForAnimations(s.page);
      await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `finish-calendar-be-${name}-${theme}.png`) });

      await day.click();
      const dialog = s.page.getByRole('dialog', { name: 'Trades on Thursday, March 5, 2026' });
      await dialog.waitFor();
      expect(await textOf(dialog.getByTestId('day-trades-summary'))).toContain('Win rate: —');
      await s.page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });

      if (name === 'desktop') {
        // Two trades on two days: the plural again.
        await createTrade(api, { date: '2026-03-06', symbol: 'NQ', pnl: 50 });
        await s.page.reload();
        await dashboard.calendarMonth.waitFor();
        await dashboard.showMonth(2026, 3);
        const footer = s.page.getByTestId('calendar-month-total').locator('xpath=..');
        await eventually(() => textOf(footer)).toBe('2 trades · 2 trading days +$50.00');
      }
    },
  );

  it.each(SCREEN_PAIRS)(
    '$name, $theme: the Monthly Win Rate chart draws its top tick, 100 percent, whole inside the chart',
    async ({ name, width, height, theme }) => {
      const s = await scenario({ width, height });
      await useAppTheme(s.context, theme);
      await traderWithoutSamples(s, `winrate-axis-${name}-${theme}`);
      const dashboard = new Dashboard(s.page);
      await dashboard.goto();
      const widget = s.page.getByTestId('widget-month-winrate');
      // Charts below the fold are drawn as they come near (phone).
      await widget.scrollIntoViewIfNeeded();
      const tick = widget.locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-label').filter({ hasText: /^100%$/ });
      await tick.waitFor();
      const surface = widget.locator('svg.recharts-surface').first();
      await waitForAnimations(s.page);
      const text = (await tick.boundingBox())!;
      const svg = (await surface.boundingBox())!;
      expect(text.width, 'the tick has a size').toBeGreaterThan(0);
      expect(text.x, 'left edge').toBeGreaterThanOrEqual(svg.x - 0.5);
      expect(text.y, 'top edge').toBeGreaterThanOrEqual(svg.y - 0.5);
      expect(text.x + text.width, 'right edge').toBeLessThanOrEqual(svg.x + svg.width + 0.5);
      expect(text.y + text.height, 'bottom edge').toBeLessThanOrEqual(svg.y + svg.height + 0.5);
      await widget.screenshot({ path: path.join(SCREENSHOT_DIR, `finish-month-winrate-${name}-${theme}.png`) });
    },
  );
});

/** What the shared PNG holds where the page draws a few things, read from the dialog's preview in the page. */
interface PictureReading {
  /** The win-rate card's ring: pixels of the ring's colour inside its box. */
  ringPixels: number;
  /** Points along the score radar's outer grid polygon that are drawn (not the card's background). */
  gridDrawn: number;
  gridPoints: number;
  /** The radar's 'Win Rate' label: its inked width in the picture against its width on the page. */
  labelWidth: { page: number; picture: number };
  /** The balance axis's labels: how many have ink at their first letter's place (their '$'). */
  axisLabelsWhole: number;
  axisLabels: number;
  /** The longest vertical run of non-background pixels in the events list's right 12 px (a scrollbar). */
  scrollbarRun: number;
  /** A calendar day's amount: the share of its box that is one colour (a redacting bar is, text is not). */
  amountSolid: number;
}

function readSharedPicture(page: Page): Promise<PictureReading> {
  return page
    .getByRole('dialog', { name: 'Share your dashboard' })
    .getByRole('img', { name: 'Preview of your dashboard' })
    .evaluate(
      async (img: HTMLImageElement, day: string) => {
        const picture = new Image();
        picture.src = img.src;
        await picture.decode();
        const canvas = document.createElement('canvas');
        canvas.width = picture.naturalWidth;
        canvas.height = picture.naturalHeight;
        const g = canvas.getContext('2d', { willReadFrequently: true })!;
        g.drawImage(picture, 0, 0);
        const target = document.getElementById('dashboard-capture')!.getBoundingClientRect();
        const scale = picture.naturalWidth / target.width;
        const at = (x: number, y: number) => {
          const px = Math.round((x - target.left) * scale);
          const py = Math.round((y - target.top) * scale);
          if (px < 0 || py < 0 || px >= canvas.width || py >= canvas.height) return null;
          return g.getImageData(px, py, 1, 1).data;
        };
        const distance = (a: ArrayLike<number>, b: ArrayLike<number>) => Math.abs(a[0]! - b[0]!) + Math.abs(a[1]! - b[1]!) + Math.abs(a[2]! - b[2]!);
        const rgb = (css: string) => (css.match(/\d+/g) ?? []).slice(0, 3).map(Number);
        const box = (el: Element) => el.getBoundingClientRect();
        const inked = (x: number, y: number, background: ArrayLike<number>, reach = 1) => {
          for (let dx = -reach; dx <= reach; dx++)
            for (let dy = -reach; dy <= reach; dy++) {
              const p = at(x + dx, y + dy);
              if (p && p[3]! > 0 && distance(p, background) > 24) return true;
            }
          return false;
        };

        const ring = document.querySelector('[data-testid="widget-all-time-winrate"] [data-ring] svg')!;
        const arc = rgb(getComputedStyle(ring.querySelector('circle:last-of-type')!).stroke);
        let ringPixels = 0;
        const r = box(ring);
        for (let y = r.top; y < r.bottom; y++) for (let x = r.left; x < r.right; x++) if (distance(at(x, y) ?? [0, 0, 0], arc) < 40) ringPixels++;

        const radar = document.querySelector('[data-testid="widget-edgebook-score"] svg.recharts-surface')!;
        const rb = box(radar);
        const radarBackground = at(rb.left + 2, rb.top + 2)!;
        const outer = [...radar.querySelectorAll<SVGPathElement>('.recharts-polar-grid-concentric-polygon')].sort(
          (a, b) => b.getTotalLength() - a.getTotalLength(),
        )[0]!;
        const matrix = outer.getScreenCTM()!;
        let gridDrawn = 0;
        const gridPoints = 48;
        for (let i = 0; i < gridPoints; i++) {
          const p = outer.getPointAtLength((outer.getTotalLength() * (i + 0.5)) / gridPoints).matrixTransform(matrix);
          if (inked(p.x, p.y, radarBackground)) gridDrawn++;
        }
        const label = [...radar.querySelectorAll('text')].find((t) => t.textContent === 'Win Rate')!;
        const lb = box(label);
        let left = Infinity;
        let right = -Infinity;
        for (let x = lb.left - 30; x < lb.right + 30; x++)
          for (let y = lb.top; y < lb.bottom; y++)
            if (inked(x, y, radarBackground, 0)) {
              left = Math.min(left, x);
              right = Math.max(right, x);
            }

        const balance = document.querySelector('[data-testid="widget-monthly-pnl-chart"]')!;
        const bb = box(balance);
        const balanceBackground = at(bb.left + 4, bb.bottom - 4)!;
        const labels = [...balance.querySelectorAll('.recharts-yAxis-tick-labels text')];
        const axisLabelsWhole = labels.filter((t) => {
          const tb = box(t);
          for (let x = tb.left; x < tb.left + 5; x++) for (let y = tb.top; y < tb.bottom; y++) if (inked(x, y, balanceBackground, 0)) return true;
          return false;
        }).length;

        const list = document.querySelector('[aria-label="Economic events list"]')!;
        const eb = box(list);
        const listBackground = at(eb.right - 6, eb.top + 1)!;
        let scrollbarRun = 0;
        for (let x = eb.right - 12; x < eb.right; x++) {
          let run = 0;
          for (let y = eb.top; y < eb.bottom; y++) {
            run = inked(x, y, listBackground, 0) ? run + 1 : 0;
            scrollbarRun = Math.max(scrollbarRun, run);
          }
        }

        const amount = document.querySelector(`[data-testid="calendar-day-${day}"] [data-testid="day-pnl"]`)!;
        const ab = box(amount);
        const middle = at(ab.left + ab.width / 2, ab.top + ab.height / 2)!;
        let same = 0;
        let all = 0;
        for (let y = Math.ceil(ab.top + 1); y < ab.bottom - 1; y++)
          for (let x = Math.ceil(ab.left + 2); x < ab.right - 2; x++) {
            all++;
            if (distance(at(x, y) ?? [0, 0, 0], middle) < 20) same++;
          }

        return {
          ringPixels,
          gridDrawn,
          gridPoints,
          labelWidth: { page: lb.width, picture: right - left + 1 },
          axisLabelsWhole,
          axisLabels: labels.length,
          scrollbarRun,
          amountSolid: same / all,
        };
      },
      getTodayInZone(new Date(), 'America/New_York'),
    );
}

describe('the shared picture', () => {
  it.each(SCREEN_PAIRS)(
    '$name, $theme: it holds the radar grid, the win-rate ring, whole labels and no scrollbar; amounts hide on request',
    async ({ name, width, height, theme }) => {
      const s = await scenario({ width, height });
      await useAppTheme(s.context, theme);
      const { api } = await traderWithoutSamples(s, `picture-${name}`);
      const today = getTodayInZone(new Date(), 'America/New_York');
      // A profit factor of 1.4: no part of the score reaches the radar's outer ring, where the grid is probed.
      for (const pnl of [1791.9, -1500, 310]) await createTrade(api, { date: today, symbol: 'NQ', pnl });
      const dashboard = new Dashboard(s.page);
      await dashboard.goto();
      await s.page.getByTestId('economic-event').first().waitFor();
      await dashboard.day(today).getByTestId('day-pnl').waitFor();

      await s.page.getByRole('button', { name: 'Share', exact: true }).click();
      const dialog = s.page.getByRole('dialog', { name: 'Share your dashboard' });
      const preview = dialog.getByRole('img', { name: 'Preview of your dashboard' });
      await preview.waitFor({ timeout: 30_000 });
      // It opens on its first field, the choice to hide amounts.
      expect(await s.page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('screenshot-hide-money');

      const shown = await readSharedPicture(s.page);
      expect(shown.ringPixels, 'the win-rate ring').toBeGreaterThan(300);
      expect(shown.gridDrawn / shown.gridPoints, 'the radar grid').toBeGreaterThan(0.85);
      expect(shown.labelWidth.picture / shown.labelWidth.page, 'the radar label at its page size').toBeGreaterThan(0.85);
      expect(shown.labelWidth.picture / shown.labelWidth.page, 'the radar label at its page size').toBeLessThan(1.15);
      expect(shown.axisLabels).toBeGreaterThan(1);
      expect(shown.axisLabelsWhole, "the balance axis's labels, '$' included").toBe(shown.axisLabels);
      expect(shown.scrollbarRun, 'a scrollbar in the events list').toBeLessThan(24);
      expect(shown.amountSolid, 'a day amount written out').toBeLessThan(0.85);
      await waitForAnimations(s.page);
      await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `share-dialog-${name}-${theme}.png`) });
      const violations = await seriousA11yViolations(s.page);
      expect(violations, violations.join('\n')).toEqual([]);

      const previous = await preview.getAttribute('src');
      await dialog.getByRole('switch', { name: 'Hide dollar amounts' }).press('Space');
      await eventually(async () => (await preview.count()) === 1 && (await preview.getAttribute('src')) !== previous).toBe(true);
      const hidden = await readSharedPicture(s.page);
      expect(hidden.amountSolid, 'a day amount redacted').toBeGreaterThan(0.95);
      expect(hidden.axisLabelsWhole, 'the balance axis left out').toBe(0);
      expect(hidden.ringPixels, 'the ring stays').toBeGreaterThan(300);
      const downloading = s.page.waitForEvent('download');
      await dialog.getByTestId('screenshot-download').click();
      fs.copyFileSync((await (await downloading).path())!, path.join(SCREENSHOT_DIR, `shared-without-amounts-${name}-${theme}.png`));
    },
  );
});

/**
 * Every dollar amount the dashboard shows, found by its text, and what the shared picture holds where it is drawn: the
 * share of that box in one colour (a blank bar, or a label left out, is one colour; written figures are not).
 */
function readAmountsInPicture(page: Page): Promise<Array<{ text: string; where: string; solid: number }>> {
  return page
    .getByRole('dialog', { name: 'Share your dashboard' })
    .getByRole('img', { name: 'Preview of your dashboard' })
    .evaluate(async (img: HTMLImageElement) => {
      const picture = new Image();
      picture.src = img.src;
      await picture.decode();
      const canvas = document.createElement('canvas');
      canvas.width = picture.naturalWidth;
      canvas.height = picture.naturalHeight;
      const g = canvas.getContext('2d', { willReadFrequently: true })!;
      g.drawImage(picture, 0, 0);
      const target = document.getElementById('dashboard-capture')!;
      const frame = target.getBoundingClientRect();
      const scale = picture.naturalWidth / frame.width;
      const pixels = g.getImageData(0, 0, canvas.width, canvas.height).data;
      const at = (x: number, y: number) => {
        const px = Math.round((x - frame.left) * scale);
        const py = Math.round((y - frame.top) * scale);
        if (px < 0 || py < 0 || px >= canvas.width || py >= canvas.height) return null;
        const i = (py * canvas.width + px) * 4;
        return [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!];
      };
      /** The part of `rect` that the page shows: cut by every ancestor that clips (a visually hidden table is 1 px). */
      const shown = (node: Node, rect: DOMRect) => {
        let { left, top, right, bottom } = rect;
        for (let el = node.parentElement; el && el !== target.parentElement; el = el.parentElement) {
          const style = getComputedStyle(el);
          if (style.display === 'none' || style.visibility === 'hidden' || style.opacity === '0') return null;
          if (el.dataset.screenshotIgnore !== undefined) return null;
          const clips = style.overflow !== 'visible' || style.clip !== 'auto' || style.clipPath !== 'none';
          if (clips) {
            const box = el.getBoundingClientRect();
            left = Math.max(left, box.left);
            top = Math.max(top, box.top);
            right = Math.min(right, box.right);
            bottom = Math.min(bottom, box.bottom);
          }
        }
        return right - left > 3 && bottom - top > 3 ? { left, top, right, bottom } : null;
      };
      const AMOUNT = /[-+]?\$\d[\d,]*(?:\.\d+)?/g;
      const found: Array<{ text: string; where: string; solid: number }> = [];
      const walker = document.createTreeWalker(target, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of (node.textContent ?? '').matchAll(AMOUNT)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const box = shown(node, range.getBoundingClientRect());
          if (!box) continue;
          // Inside by a pixel and a half: a bar's rounded corners are the background's colour.
          const counts = new Map<string, number>();
          let all = 0;
          for (let y = Math.ceil(box.top + 1.5); y < box.bottom - 1.5; y++)
            for (let x = Math.ceil(box.left + 1.5); x < box.right - 1.5; x++) {
              const p = at(x, y);
              if (!p) continue;
              all++;
              const key = p.map((c) => Math.round(c / 24)).join(',');
              counts.set(key, (counts.get(key) ?? 0) + 1);
            }
          const where = (node.parentElement?.closest('[data-testid]') as HTMLElement | null)?.dataset.testid ?? node.parentElement?.tagName ?? '';
          found.push({ text: match[0], where, solid: all === 0 ? 1 : Math.max(...counts.values()) / all });
        }
      }
      return found;
    });
}

describe('the shared picture without dollar amounts', () => {
  it('blanks every dollar amount the dashboard draws, the prop accounts’ balances, profits and limits included', async () => {
    // A phone's width: each widget is as wide as the screen, so no line of it wraps differently in the picture than on
    // the page (the reading looks for each amount where the page draws it).
    const s = await scenario({ width: 390, height: 844 });
    const { api } = await traderWithoutSamples(s, 'no-amounts');
    const today = getTodayInZone(new Date(), 'America/New_York');
    const account = await api.post('/api/accounts', { name: 'Combine', kind: 'evaluation', firm: 'Topstep', size: 50000, starting_balance: 50000 });
    expect(account.status, JSON.stringify(account.body)).toBe(201);
    const rules = await api.put(`/api/prop/accounts/${account.body.id}/rules`, {
      rules: { profitTargetCents: 300_000, dailyLoss: { limitCents: 223_456, onBreach: 'fail', check: 'end-of-day' } },
    });
    expect(rules.status, JSON.stringify(rules.body)).toBe(200);
    for (const pnl of [2666.67, 1791.9, -1500]) await createTrade(api, { account_id: account.body.id, date: today, symbol: 'NQ', pnl });
    const dashboard = new Dashboard(s.page);
    await dashboard.goto();
    const widget = s.page.getByTestId('widget-prop-accounts');
    if ((await widget.count()) === 0) {
      await s.page.getByRole('button', { name: 'Add widget' }).click();
      await s.page.getByRole('menuitem', { name: 'Prop Accounts' }).click();
    }
    await widget.getByTestId('prop-widget-line').waitFor();
    await dashboard.day(today).getByTestId('day-pnl').waitFor();

    await s.page.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Share your dashboard' });
    const preview = dialog.getByRole('img', { name: 'Preview of your dashboard' });
    await preview.waitFor({ timeout: 30_000 });
    // With the amounts: they are written out, the prop account's among them (the reading sees figures).
    const shown = await readAmountsInPicture(s.page);
    const inProp = shown.filter((a) => a.where.startsWith('prop-widget') || a.where === 'widget-prop-accounts');
    expect(
      inProp.map((a) => a.text),
      JSON.stringify(shown),
    ).toEqual(expect.arrayContaining(['$52,958.57', '+$2,958.57']));
    expect(shown.filter((a) => a.solid < 0.9).length, JSON.stringify(shown)).toBeGreaterThanOrEqual(5);

    const previous = await preview.getAttribute('src');
    await dialog.getByRole('switch', { name: 'Hide dollar amounts' }).press('Space');
    await eventually(async () => (await preview.count()) === 1 && (await preview.getAttribute('src')) !== previous).toBe(true);
    const hidden = await readAmountsInPicture(s.page);
    expect(hidden.length).toBeGreaterThanOrEqual(5);
    const written = hidden.filter((a) => a.solid < 0.95).map((a) => `${a.text} in ${a.where} (${a.solid.toFixed(2)} one colour)`);
    expect(written, 'amounts still written in the picture').toEqual([]);
  });
});

describe('the dashboard in R', () => {
  it.each(SCREEN_PAIRS)(
    '$name, $theme: the $ / R switch shows the month, the day and its week in R, and says which trades have no planned risk',
    async ({ name, width, height, theme }) => {
      const s = await scenario({ width, height });
      await useAppTheme(s.context, theme);
      const { api } = await traderWithoutSamples(s, `in-r-${name}`);
      const today = getTodayInZone(new Date(), 'America/New_York');
      // +$800 on a $400 plan is +2R, -$150 on $300 is -0.5R: +1.50R. +$50 without a plan is $700 in all, and no R.
      await createTrade(api, { date: today, symbol: 'NQ', pnl: 800, risk_amount: 400 });
      await createTrade(api, { date: today, symbol: 'NQ', pnl: -150, risk_amount: 300 });
      await createTrade(api, { date: today, symbol: 'ES', pnl: 50 });
      const dashboard = new Dashboard(s.page);
      await dashboard.goto();
      const day = dashboard.day(today);
      const week = s.page.getByRole('row').filter({ has: day }).getByTestId('week-pnl');
      const monthly = s.page.getByTestId('monthly-pnl-value');
      const showMonthly = async () => {
        if (name === 'phone') await s.page.getByRole('button', { name: 'Show Monthly PnL' }).click();
      };
      await showMonthly();
      await eventually(async () => [await textOf(day.getByTestId('day-pnl')), await textOf(monthly)]).toEqual([
        name === 'phone' ? '$700' : '$700.00',
        '+$700.00',
      ]);

      await s.page.getByTestId('figure-unit').getByText('R', { exact: true }).click();
      await eventually(async () => ({
        day: await textOf(day.getByTestId('day-pnl')),
        week: await textOf(week),
        month: await textOf(s.page.getByTestId(name === 'phone' ? 'calendar-month-summary-r' : 'calendar-month-total')),
        card: await textOf(monthly),
        // A phone's cells round to one decimal, as they round dollars to whole ones.
      })).toEqual({ day: name === 'phone' ? '+1.5R' : '+1.50R', week: name === 'phone' ? '+1.5R' : '+1.50R', month: '+1.50R', card: '+1.50R' });
      expect(await textOf(s.page.getByTestId('monthly-r-note'))).toBe('1 trade without a planned risk');
      // The profit factor in R: 2R won over 0.5R lost, never the dollars under the R switch.
      if (name === 'phone') await s.page.getByRole('button', { name: 'Show Profit Factor' }).click();
      await eventually(async () => [
        await textOf(s.page.getByTestId('profit-factor-value')),
        await textOf(s.page.getByTestId('profit-factor-r-note')),
      ]).toEqual(['4.00', 'R won over R lost; 1 trade without a planned risk']);
      if (name === 'phone') await showMonthly();
      expect(await textOf(s.page.getByTestId('calendar-without-risk'))).toBe('1 trade without a planned risk: it is left out of the R figures.');
      // The day keeps its trade count and win rate, and its tint follows its R.
      expect(await day.getAttribute('data-tint')).toBe('green');
      expect(await textOf(day.getByTestId('day-trades'))).toMatch(/^3 (trades|tr)/);
      await dashboard.calendarMonth.scrollIntoViewIfNeeded();
      await waitForAnimations(s.page);
      await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `in-r-calendar-${name}-${theme}.png`) });
      expect(await seriousA11yViolations(s.page)).toEqual([]);

      // The preference is kept (the Reports' one): after a reload it is still R.
      await s.page.reload();
      await dashboard.calendarMonth.waitFor();
      await showMonthly();
      await eventually(() => textOf(monthly)).toBe('+1.50R');
      await s.page.evaluate(() => window.scrollTo(0, 0));
      await waitForAnimations(s.page);
      await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `in-r-top-${name}-${theme}.png`) });
      await s.page.getByTestId('figure-unit').getByText('$', { exact: true }).click();
      await eventually(() => textOf(day.getByTestId('day-pnl'))).toBe(name === 'phone' ? '$700' : '$700.00');
      expect(await s.page.getByTestId('calendar-without-risk').count()).toBe(0);
    },
  );
});
