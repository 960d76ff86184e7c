import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { listAll, type TradeDto } from '../tests/api/trades-support';
import { SearchPalette } from './pages/search-palette';
import { Shell } from './pages/shell';
import { signedInTrader, TradeLogPage } from './pages/trade-log';
import { seriousA11yViolations } from './support/a11y';
import { eventually, SCREEN_PAIRS, useAppTheme, useE2ESuite, waitForAnimations } from './support/scenario';

/**
 * The main flows with the keyboard alone: the skip link, the sidebar, adding a trade, a dialog
 * opened and closed, the Ctrl+K palette finding a trade and a note; axe on each screen the walk opens.
 */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-keyboard-'));
const suite = useE2ESuite(() => ({ env: { AUTH_RATE_LIMIT: '1000' } }));

/** What has the focus: its test id, else its tag and accessible text, for readable failures. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return (
      el?.getAttribute('data-testid') ??
      `${el?.tagName.toLowerCase()}:${(el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim().slice(0, 40)}`
    );
  });

/** Presses `key` until the focus is on the element with this test id; fails after `most` presses. */
async function tabTo(page: Page, testId: string, most: number, key = 'Tab'): Promise<number> {
  const walk: string[] = [];
  for (let presses = 1; presses <= most; presses++) {
    await page.keyboard.press(key);
    walk.push(await focused(page));
    if (walk.at(-1) === testId) return presses;
  }
  throw new Error(`${key} x${most} never reached ${testId} (the walk: ${walk.join(' > ')})`);
}

const visibleTooltips = (page: Page) =>
  page
    .locator('.mantine-Tooltip-tooltip')
    .evaluateAll((els) =>
      els.filter((el) => getComputedStyle(el).opacity !== '0' && (el as HTMLElement).offsetParent !== null).map((el) => el.textContent),
    );

async function expectNoSeriousViolations(page: Page, where: string) {
  const violations = await seriousA11yViolations(page);
  expect(violations, `${where}\n${violations.join('\n')}`).toEqual([]);
}

describe('keyboard only', () => {
  it.each(SCREEN_PAIRS)(
    '$name, $theme: the skip link, the sidebar, adding a trade, a dialog and the palette, with nothing serious for axe',
    async ({ name, width, height, theme }) => {
      const s = await suite.scenario({ width, height });
      await useAppTheme(s.context, theme);
      const client = await signedInTrader(suite.e2e.app, s.context, `keys-${name}`);
      await client.post('/api/onboarding');
      const samples = await listAll(client);
      await client.post('/api/trades/bulk-delete', { ids: samples.map((t) => t.id) });
      const note = (await client.post('/api/notes', { title: 'Keyboard walk plan', content: 'Tab, Enter, Escape.' })).body as { id: string };
      const { page } = s;
      const shell = new Shell(page);
      const phone = name === 'phone';

      // The skip link is the first stop, shown when focused, and leads past the bar and the sidebar in one Enter.
      await shell.goto('/');
      await page.getByTestId('calendar-month').waitFor();
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('skip-link');
      const link = (await page.getByTestId('skip-link').boundingBox())!;
      expect(link.y).toBeGreaterThanOrEqual(0);
      expect(link.x + link.width).toBeLessThanOrEqual(width);
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('#main-content')))).toBe(true);
      expect(new URL(page.url()).hash).toBe('');

      if (!phone) {
        // One tooltip at a time: the entry under the mouse gives way to the one tabbed to.
        await page.getByTestId('nav-reflect-ai').hover();
        await page.getByRole('tooltip', { name: 'ReflectAI' }).waitFor();
        await page.getByTestId('nav-dashboard').focus();
        await page.keyboard.press('Tab');
        await page.keyboard.press('Shift+Tab');
        await page.getByRole('tooltip', { name: 'Dashboard' }).waitFor();
        await page.waitForTimeout(400);
        expect(await visibleTooltips(page)).toEqual(['Dashboard']);
        // Escape dismisses it, the focus staying put.
        await page.keyboard.press('Escape');
        await page.getByRole('tooltip', { name: 'Dashboard' }).waitFor({ state: 'hidden' });
        expect(await focused(page)).toBe('nav-dashboard');
        await page.mouse.move(width / 2, height - 10);
      }

      // The sidebar's new entries, by keyboard: the notebook (on a phone through the menu drawer). The walk starts
      // once the app has its figures, as the skip link's did: keys pressed on the page drawn at build time would be lost
      // when the app takes over from it.
      await shell.goto('/');
      await page.getByTestId('calendar-month').waitFor();
      if (phone) {
        await tabTo(page, 'mobile-nav-toggle', 4);
        await page.keyboard.press('Enter');
        await eventually(() => shell.sidebarOnScreen()).toBe(true);
      }
      await tabTo(page, 'nav-notebook', phone ? 10 : 14);
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === '/notebook');
      await eventually(() => page.getByTestId('nav-notebook').getAttribute('aria-current')).toBe('page');
      if (phone) await eventually(() => shell.sidebarOnScreen()).toBe(false);
      await expectNoSeriousViolations(page, '/notebook');

      // Add a trade: the dialog opens on its first field, Enter in the form saves it, and the focus comes back.
      const log = new TradeLogPage(page);
      await log.goto();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await tabTo(page, 'add-trade', 8);
      await page.keyboard.press('Enter');
      await log.addDialog.waitFor();
      await eventually(() => focused(page)).toBe('trade-account');
      expect(await log.addDialog.getByRole('button', { name: 'Close', exact: true }).count()).toBe(1);
      expect(await log.addDialog.getByRole('button', { name: 'Clear date' }).count()).toBe(1);
      await waitForAnimations(page);
      await expectNoSeriousViolations(page, 'Add New Trade');
      await tabTo(page, 'trade-instrument', 6);
      await page.keyboard.press('Control+A');
      await page.keyboard.type('KBD');
      await tabTo(page, 'trade-pnl-input', 8);
      await page.keyboard.press('Control+A');
      await page.keyboard.type('125.50');
      await page.keyboard.press('Enter');
      await log.addDialog.waitFor({ state: 'hidden' });
      await eventually(async () => (await listAll(client)).map((t) => [t.symbol, t.pnl])).toEqual([['KBD', '125.50']]);
      await eventually(() => focused(page)).toBe('add-trade');

      // A dialog opened and closed: Escape, then its named close button, the focus coming back each time.
      await page.keyboard.press('Enter');
      await log.addDialog.waitFor();
      await page.keyboard.press('Escape');
      await log.addDialog.waitFor({ state: 'hidden' });
      await eventually(() => focused(page)).toBe('add-trade');
      await page.keyboard.press('Enter');
      await log.addDialog.waitFor();
      await eventually(() => focused(page)).toBe('trade-account');
      // Backwards from the first field: the focus stays in the dialog and reaches its close button.
      for (let i = 0; i < 3 && (await focused(page)) !== 'button:Close'; i++) await page.keyboard.press('Shift+Tab');
      expect(await focused(page)).toBe('button:Close');
      await page.keyboard.press('Enter');
      await log.addDialog.waitFor({ state: 'hidden' });
      await eventually(() => focused(page)).toBe('add-trade');

      // The edit and delete buttons say which trade they act on.
      const [saved] = (await listAll(client)) as TradeDto[];
      const day = new Date(`${saved!.date}T12:00:00Z`).toLocaleDateString('en-US', {
        month: 'short',
        day: 'numeric',
        year: 'numeric',
        timeZone: 'UTC',
      });
      await page.getByRole('button', { name: `Edit trade KBD, ${day}` }).waitFor();
      expect(await page.getByRole('button', { name: `Delete trade KBD, ${day}` }).count()).toBe(1);

      // The palette finds the trade by its symbol and by its day, and the note by its title; Enter opens the trade.
      const palette = new SearchPalette(page);
      await palette.openWithShortcut();
      expect(await focused(page)).toBe('search-input');
      await page.keyboard.type('Keyboard walk');
      await page.getByTestId('search-note').filter({ hasText: 'Keyboard walk plan' }).waitFor();
      await page.keyboard.press('Control+A');
      await page.keyboard.type(day.replace(/, \d{4}$/, ''));
      // Spotlight draws a group's name from a style variable.
      await page.locator(`.mantine-Spotlight-actionsGroup[style*="Trades on ${day}"]`).waitFor();
      await page.getByTestId('search-trade').filter({ hasText: 'KBD' }).waitFor();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('kbd');
      await page.getByTestId('search-trade').filter({ hasText: 'KBD' }).waitFor();
      await waitForAnimations(page);
      await expectNoSeriousViolations(page, 'the palette with a trade found');
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `keyboard-palette-${name}-${theme}.png`) });
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === `/trade/${saved!.id}`);
      await palette.input.waitFor({ state: 'hidden' });
      await page.getByTestId('trade-details').waitFor();

      await palette.openWithShortcut();
      await page.keyboard.type('Keyboard walk');
      await eventually(() => palette.input.inputValue()).toBe('Keyboard walk');
      await page.getByTestId('search-note').waitFor();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === '/notebook' && url.searchParams.get('note') === note.id);
    },
  );
});
