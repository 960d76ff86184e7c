import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { session as sessionTable } from '../src/server/db/schema';
import { uniqueEmail, type ApiClient } from '../tests/support/app';
import { importFile } from '../tests/api/imports-support';
import { createAccount } from '../tests/api/trades-support';
import { NotebookPage } from './pages/notebook';
import { ReflectAiPage } from './pages/reflect-ai';
import { SearchPalette } from './pages/search-palette';
import { Shell } from './pages/shell';
import { signedInTrader, TradeLogPage } from './pages/trade-log';
import { seriousA11yViolations } from './support/a11y';
import { addSessionCookies, PASSWORD } from './support/accounts';
import { eventually, SCREEN_PAIRS, useAppTheme, useE2ESuite, waitForPath } from './support/scenario';

/**
 * One clock (point 3): the browser runs in Tokyo, the trader lives in Chicago, and the header
 * clock, Chat History and a trade's times read Chicago. No word lost (point 4): a note being written survives a
 * reload and a click elsewhere, Ctrl+K opens the palette from inside it, and two tabs of one profile never let an
 * older text replace a newer save silently. A session that ends mid-edit (point 10) sends the trader to sign in and
 * back to the note with the words still there.
 */
const suite = useE2ESuite(() => ({ env: { AUTH_RATE_LIMIT: '1000' } }));
const LONDON = new URL('../src/domain/importers/fixtures/tradovate-performance-london.csv', import.meta.url);
const SHOTS = process.env.CLOCK_SHOTS;

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

async function api<T = any>(client: ApiClient, method: string, pathname: string, body?: unknown): Promise<T> {
  const res = await client.json(method, pathname, body);
  expect(res.status, `${method} ${pathname}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body as T;
}

const text = async (page: Page, testId: string) => (await page.getByTestId(testId).first().innerText()).trim();

describe('one clock', () => {
  it.each(SCREEN_PAIRS)(
    "$name, $theme: a browser in Tokyo, a trader in Chicago: the clock, Chat History and a trade's times read Chicago",
    async ({ name, width, height, theme }) => {
      const s = await suite.scenario({ width, height, colorScheme: theme, timezoneId: 'Asia/Tokyo' });
      await useAppTheme(s.context, theme);
      const trader = await signedInTrader(suite.e2e.app, s.context, `clock-${name}`);
      // 02:00 UTC on Tuesday 10 March 2026: 11:00 on the 10th in Tokyo, 21:00 on Monday the 9th in Chicago (CDT).
      await s.page.clock.install({ time: new Date('2026-03-10T02:00:00Z') });
      const shell = new Shell(s.page);

      // The first sign-in takes the browser's zone as the trader's own.
      await s.page.goto('/');
      await eventually(async () => (await api(trader, 'GET', '/api/preferences')).time_zone).toBe('Asia/Tokyo');
      await eventually(() => text(s.page, 'top-bar-time')).toBe('11:00');

      // The trader lives in Chicago: Profile Settings, a searchable list of zones.
      await s.page.getByRole('button', { name: 'Profile settings' }).click();
      const dialog = s.page.getByRole('dialog', { name: 'Profile Settings' });
      const zone = dialog.getByTestId('time-zone-setting');
      await eventually(() => zone.inputValue()).toBe('Asia/Tokyo (GMT+09:00)');
      await zone.click();
      await zone.fill('chicago');
      await s.page.getByRole('option', { name: 'America/Chicago (GMT-05:00)' }).click();
      await s.page.getByText('Time zone saved: America/Chicago', { exact: true }).waitFor();
      await eventually(() => zone.inputValue()).toBe('America/Chicago (GMT-05:00)');
      expect((await api(trader, 'GET', '/api/preferences')).time_zone).toBe('America/Chicago');
      await shot(s.page, `profile-settings-time-zone-${name}-${theme}`);
      expect(await seriousA11yViolations(s.page)).toEqual([]);
      await s.page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await eventually(() => text(s.page, 'top-bar-time')).toBe('21:00');
      expect(await shell.date.innerText()).toMatch(/^(Mon )?09 Mar$/);

      // Chat History: last active 09:30 on the 9th in Chicago (Today there, 23:30 yesterday in Tokyo) and the 8th.
      const db = suite.e2e.app.server.database.db;
      const userId = (await api(trader, 'GET', '/api/auth/get-session')).user.id as string;
      for (const [title, at] of [
        ['Morning review', '2026-03-09T14:30:00Z'],
        ['Sunday prep', '2026-03-08T12:00:00Z'],
      ] as const) {
        await db.execute(
          sql`insert into chat_sessions (user_id, title, last_message, created_at, updated_at) values (${userId}, ${title}, 'What went right?', ${at}::timestamptz, ${at}::timestamptz)`,
        );
      }
      const reflectAi = new ReflectAiPage(s.page);
      await reflectAi.goto();
      await reflectAi.openHistory();
      const group = (label: string) => reflectAi.historyDialog.locator(`[data-testid="history-group"][data-label="${label}"]`);
      const row = (title: string) => reflectAi.historyDialog.getByTestId('history-session').filter({ hasText: title });
      await eventually(() => group('Today').getByTestId('history-title').allInnerTexts()).toEqual(['Morning review']);
      expect(await group('Yesterday').getByTestId('history-title').allInnerTexts()).toEqual(['Sunday prep']);
      expect(await row('Morning review').getByTestId('history-when').innerText()).toBe('09:30');
      expect(await row('Sunday prep').getByTestId('history-when').innerText()).toBe('Mar 8, 2026');
      await s.page.keyboard.press('Escape');

      // A trade's executions on the Chicago clock, the zone beside them (14:35:10 in London is 08:35:10 in Chicago).
      const account = await createAccount(trader, 'London desk');
      expect((await importFile(trader, { account_id: account.id, time_zone: 'Europe/London' }, fs.readFileSync(LONDON, 'utf8'))).status).toBe(200);
      const trades = (await api(trader, 'GET', `/api/trades?account=${account.id}&limit=50`)).trades as Array<{ id: string; entry_time: string }>;
      const first = trades.find((t) => t.entry_time === '2025-07-15T13:35:10.000Z')!;
      await s.page.goto(`/trade/${first.id}`);
      const field = (label: string) => s.page.locator(`[data-testid="trade-field"][data-label="${label}"]`);
      await eventually(() => field('Entry time').innerText()).toContain('07/15/2025 08:35:10');
      expect(await field('Entry time').getByTestId('trade-time-zone').innerText()).toBe('CDT');
      expect(await field('Exit time').innerText()).toContain('07/15/2025 08:41:00');
      expect(await text(s.page, 'top-bar-time')).toBe('21:00');
    },
  );
});

describe('the default account', () => {
  it("follows 'Set Default' in the calendar's picker, the calendar's Add Trade, the Trade Log and the import dialog", async () => {
    const s = await suite.scenario({ width: 1440, height: 900, colorScheme: 'dark' });
    const trader = await signedInTrader(suite.e2e.app, s.context, 'default-account');
    await api(trader, 'POST', '/api/onboarding');
    await createAccount(trader, 'Alpha');
    await createAccount(trader, 'Bravo');
    const picker = s.page.getByTestId('account-selector').first();

    // The Trade Log opens on the default account; the trader looks at All Trades for a while.
    const log = new TradeLogPage(s.page);
    await log.goto();
    await eventually(() => picker.inputValue()).toBe('Alpha ★');
    await log.chooseAccount('All Trades');
    await eventually(() => picker.inputValue()).toBe('All Trades');

    // The dashboard's calendar opens on the default account too. Bravo becomes the default from its panel.
    await s.page.goto('/');
    await eventually(() => picker.inputValue()).toBe('Alpha ★');
    await s.page.getByRole('button', { name: 'Manage accounts' }).click();
    const panel = s.page.getByRole('dialog', { name: 'Account Management' });
    await panel.getByTestId('all-accounts').getByRole('button', { name: 'Bravo', exact: true }).click();
    await panel.getByTestId('current-account').getByRole('button', { name: 'Set Default' }).click();
    await s.page.getByText('Default account updated successfully', { exact: true }).waitFor();
    await s.page.keyboard.press('Escape');
    await eventually(() => picker.inputValue()).toBe('Bravo ★');

    // Add Trade from the calendar goes into the account it shows.
    await s.page.getByTestId('widget-tradelog-pnl-calendar').getByRole('button', { name: 'Add Trade' }).click();
    const add = s.page.getByRole('dialog', { name: 'Add New Trade' });
    await add.waitFor();
    await eventually(() => add.getByTestId('trade-account').inputValue()).toBe('Bravo ★');
    await s.page.keyboard.press('Escape');
    await add.waitFor({ state: 'hidden' });
    // The Trade Log's All Trades was picked under the old default: it follows the new one, and so do imports.
    await eventually(() => picker.inputValue()).toBe('Bravo ★');
    await s.page.getByTestId('import-file-input').setInputFiles(LONDON.pathname);
    const importing = s.page.getByRole('dialog', { name: 'Import Trades' });
    await eventually(() => importing.getByTestId('import-account').inputValue()).toBe('Bravo ★');
  });
});

describe('no word lost', () => {
  it('keeps a note being written through a reload and a click elsewhere, Ctrl+K opens the palette from it, and two tabs choose instead of overwriting', async () => {
    const s = await suite.scenario({ width: 1440, height: 900, colorScheme: 'dark' });
    await useAppTheme(s.context, 'dark');
    const trader = await signedInTrader(suite.e2e.app, s.context, 'drafts');
    const note = await api(trader, 'POST', '/api/notes', { title: 'ORB plan', content: 'v1' });
    const stored = async () => (await api(trader, 'GET', `/api/notes/${note.id}`)).content as string;
    const notebook = new NotebookPage(s.page);
    await notebook.goto(`?note=${note.id}`);
    await eventually(() => notebook.body.inputValue()).toBe('v1');

    // Written, not saved: kept in this browser after a pause.
    await notebook.body.fill('v1\nwait for the retest');
    await notebook.editor.getByTestId('draft-kept').waitFor();
    await s.page.reload();
    await eventually(() => notebook.body.inputValue()).toBe('v1\nwait for the retest');
    await notebook.editor.getByTestId('draft-restored').waitFor();
    await shot(s.page, 'notebook-draft-restored-desktop-dark');

    // A click elsewhere (the sidebar) and back: still there. Nothing reached the server.
    await notebook.body.fill('v1\nwait for the retest\nsize down after a loss');
    await new Shell(s.page).nav('trade-log').click();
    await waitForPath(s.page, '/trade-log');
    await s.page.goBack();
    await eventually(() => notebook.body.inputValue()).toBe('v1\nwait for the retest\nsize down after a loss');
    expect(await stored()).toBe('v1');

    // Ctrl+K from inside the editor opens the search palette and types nothing into the note.
    await notebook.body.focus();
    await s.page.keyboard.press('End');
    const palette = new SearchPalette(s.page);
    await s.page.keyboard.press('Control+k');
    await palette.input.waitFor();
    await s.page.keyboard.press('Escape');
    await palette.input.waitFor({ state: 'hidden' });
    expect(await notebook.body.inputValue()).toBe('v1\nwait for the retest\nsize down after a loss');

    // A second tab of the same profile: the words are the trader's, so it opens with them too. There the trader
    // drops them, writes something else and saves.
    const second = await s.context.newPage();
    const other = new NotebookPage(second);
    await other.goto(`?note=${note.id}`);
    await other.editor.getByTestId('draft-restored').waitFor();
    await other.editor.getByTestId('draft-discard').click();
    await eventually(() => other.body.inputValue()).toBe('v1');
    await other.body.fill('v2 from the second tab');
    await other.save();
    await other.toast('Saved').waitFor();
    await eventually(stored).toBe('v2 from the second tab');

    // The first tab's Save would replace newer words: refused, it says so, and the trader loads the saved version.
    await s.page.bringToFront();
    await notebook.save();
    const elsewhere = notebook.editor.getByTestId('saved-elsewhere');
    await elsewhere.waitFor();
    expect(await stored()).toBe('v2 from the second tab');
    await shot(s.page, 'notebook-saved-elsewhere-desktop-dark');
    await elsewhere.getByTestId('saved-elsewhere-load').click();
    await eventually(() => notebook.body.inputValue()).toBe('v2 from the second tab');

    // Again: the first tab writes on top of v2, the second saves v3, and the first tab reloads. Its draft grew from
    // v2: it is not put over v3 silently; the trader sees v3 and chooses their draft.
    await notebook.body.fill('v2 from the second tab\nfirst tab again');
    await notebook.editor.getByTestId('draft-kept').waitFor();
    await second.bringToFront();
    await other.body.fill('v3 from the second tab');
    await other.save();
    await eventually(stored).toBe('v3 from the second tab');
    await s.page.bringToFront();
    await s.page.reload();
    const conflict = notebook.editor.getByTestId('draft-conflict');
    await conflict.waitFor();
    expect(await notebook.body.inputValue()).toBe('v3 from the second tab');
    await shot(s.page, 'notebook-draft-conflict-desktop-dark');
    expect(await seriousA11yViolations(s.page)).toEqual([]);
    await conflict.getByTestId('draft-use').click();
    await eventually(() => notebook.body.inputValue()).toBe('v2 from the second tab\nfirst tab again');
    await notebook.save();
    await eventually(stored).toBe('v2 from the second tab\nfirst tab again');
    await eventually(() => notebook.editor.getByTestId('draft-restored').count()).toBe(0);
    // Saved: nothing is kept any more, so a reload shows the saved note alone.
    await s.page.reload();
    await eventually(() => notebook.body.inputValue()).toBe('v2 from the second tab\nfirst tab again');
    expect(await notebook.editor.locator('[data-testid^="draft-"]').count()).toBe(0);
  });
});

describe('a session that ends mid-work', () => {
  it("sends the trader to sign in with the spec's words, back to the note, with what they were typing", async () => {
    const s = await suite.scenario({ width: 390, height: 844, colorScheme: 'light' });
    await useAppTheme(s.context, 'light');
    const client = suite.e2e.app.client();
    const email = uniqueEmail('expiry');
    expect((await client.signUp(email, PASSWORD)).status).toBe(200);
    await addSessionCookies(suite.e2e.app, s.context, client);
    const userId = (await api(client, 'GET', '/api/auth/get-session')).user.id as string;
    const note = await api(client, 'POST', '/api/notes', { title: 'Review', content: 'Entries:' });

    const notebook = new NotebookPage(s.page);
    await notebook.goto(`?note=${note.id}`);
    await eventually(() => notebook.body.inputValue()).toBe('Entries:');
    await notebook.body.fill('Entries: two good, one chased');

    // The session is deleted on the server while the trader types.
    const { database } = suite.e2e.app.server;
    await database.db.delete(sessionTable).where(eq(sessionTable.userId, userId));
    await database.sessionsChanged();

    await notebook.save();
    await waitForPath(s.page, '/login');
    const notice = s.page.getByTestId('session-expired');
    await notice.waitFor();
    expect(await notice.innerText()).toContain('Session expired');
    expect(await notice.innerText()).toContain('No valid session.');
    await shot(s.page, 'session-expired-phone-light');
    expect(await seriousA11yViolations(s.page)).toEqual([]);

    await s.page.getByTestId('login-email').fill(email);
    await s.page.getByTestId('login-password').fill(PASSWORD);
    await s.page.getByTestId('login-submit').click();
    await s.page.waitForURL((url) => url.pathname === '/notebook' && url.searchParams.get('note') === note.id);
    await eventually(() => notebook.body.inputValue()).toBe('Entries: two good, one chased');
    await notebook.editor.getByTestId('draft-restored').waitFor();
    await notebook.save();
    await notebook.toast('Saved').waitFor();
    const signedIn = suite.e2e.app.client();
    expect((await signedIn.signIn(email, PASSWORD)).status).toBe(200);
    expect((await api(signedIn, 'GET', `/api/notes/${note.id}`)).content).toBe('Entries: two good, one chased');
  });
});
