import { describe, expect, it } from 'vitest';
import { signedInTrader } from './pages/trade-log';
import { signedInAccount } from './support/accounts';
import { useE2ESuite } from './support/scenario';

/**
 * The signed-in first screen: / is sent drawn as the dashboard's frame, so the shell and the heading paint
 * before any script has run, and the app then draws the dashboard over it, the heading where it was, with no loader
 * in between.
 */
const suite = useE2ESuite(() => ({ backend: 'pglite', env: { AUTH_RATE_LIMIT: '1000' } }));

/**
 * 278 kB of gzipped JavaScript and CSS before the calendar's figures when it was opened, 276, then
 * 240 once the pickers' Select and the tooltips loaded on first use (target 250).
 */
const FIRST_SCREEN_KB = 245;

const heading = (page: import('playwright-core').Page) => page.getByRole('heading', { level: 1, name: 'Dashboard' });

describe('the signed-in first screen', () => {
  it('shows the dashboard frame without JavaScript: the shell, the heading and working links, nothing to click that needs code', async () => {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const { context, page } = await suite.scenario({ javaScriptEnabled: false, ...viewport });
      await signedInAccount(suite.e2e.app, context, 'frame');
      await page.goto('/');
      expect(await page.title()).toBe('Dashboard · Edgebook');
      const h1 = page.locator('h1', { hasText: 'Dashboard' });
      await h1.waitFor();
      // The frame takes no clicks until the app replaces it, and nothing takes it for the working page: no role a
      // screen reader (or a test) would find, no test id.
      expect(await page.locator('#root > div[inert][aria-hidden="true"]').count()).toBe(1);
      expect(await page.getByRole('heading', { name: 'Dashboard' }).count()).toBe(0);
      expect(await page.locator('#root [data-testid]').count()).toBe(0);
      // The dashboard collapses the sidebar at load: the frame is drawn collapsed too.
      if (viewport.width === 1440) expect(await page.locator('[aria-label="Sidebar"]').getAttribute('data-collapsed')).toBe('true');
      // No clock of the build's time, and no figures: those come with the app.
      expect(await page.locator('#root time').count()).toBe(0);
      expect(await page.locator('#root').innerText()).not.toMatch(/\$\d/);
    }
  });

  for (const [theme, width] of [
    ['dark', 1440],
    ['light', 390],
  ] as const) {
    it(`draws the dashboard over its frame with no loader in between, the heading not moving (${theme}, ${width} px)`, async () => {
      const { context, page } = await suite.scenario({ width, height: width === 390 ? 844 : 900, colorScheme: theme });
      await signedInAccount(suite.e2e.app, context, 'frame');
      await context.addInitScript((light) => {
        if (light) window.localStorage.setItem('theme', 'light');
        const w = window as unknown as { loaderSeen: boolean; frameBox: DOMRect | null; frameScheme: string | null };
        w.loaderSeen = false;
        w.frameBox = null;
        w.frameScheme = null;
        new MutationObserver(() => {
          if (document.querySelector('[data-testid="auth-loading"]')) w.loaderSeen = true;
          const drawn = document.querySelector('#root > div[inert] h1');
          if (drawn && w.frameScheme === null) {
            // The scheme as the page is read; the heading's place as it is first drawn (with its styles).
            w.frameScheme = document.documentElement.dataset.mantineColorScheme ?? '';
            requestAnimationFrame(() => {
              if (drawn.isConnected) w.frameBox = drawn.getBoundingClientRect();
            });
          }
        }).observe(document, { childList: true, subtree: true });
      }, theme === 'light');
      await page.goto('/');
      await page.getByTestId('dashboard-toolbar').waitFor();
      await page.locator('html:not([data-prerendered])').waitFor({ state: 'attached' });
      await page.waitForLoadState('networkidle');
      const seen = await page.evaluate(() => {
        const w = window as unknown as { loaderSeen: boolean; frameBox: DOMRect | null; frameScheme: string | null };
        return { loaderSeen: w.loaderSeen, frameBox: w.frameBox && { x: w.frameBox.x, y: w.frameBox.y }, frameScheme: w.frameScheme };
      });
      expect(seen.loaderSeen).toBe(false);
      expect(seen.frameBox).not.toBeNull();
      // The boot script set the trader's theme before the frame was read.
      expect(seen.frameScheme).toBe(theme);
      // The app's heading stands where the frame's stood, and the frame is gone.
      const box = (await heading(page).boundingBox())!;
      expect(Math.abs(box.x - seen.frameBox!.x)).toBeLessThanOrEqual(1);
      expect(Math.abs(box.y - seen.frameBox!.y)).toBeLessThanOrEqual(1);
      // The drawn frame (scripts/prerender.mjs) is the root's inert child; the app's own inert parts (a sparkline's drawing) stay.
      expect(await page.locator('#root > div[inert]').count()).toBe(0);
      expect(await heading(page).count()).toBe(1);
      // The app's page, not the drawn one: it answers clicks.
      await page.getByRole('button', { name: 'Clear widgets' }).click();
      await page.getByRole('dialog').waitFor();
    });
  }

  for (const [theme, width] of [
    ['light', 390],
    ['dark', 1440],
  ] as const) {
    it(`draws ${width === 390 ? 'the phone’s column under the calendar one piece at a time after it' : 'every widget with the calendar at once'}, all of them in their order (${theme}, ${width} px)`, async () => {
      const { context, page } = await suite.scenario({ width, height: width === 390 ? 844 : 900, colorScheme: theme });
      await signedInAccount(suite.e2e.app, context, 'staged');
      await context.addInitScript((light) => {
        if (light) window.localStorage.setItem('theme', 'light');
        // What each commit of the page left in the document: the calendar, the quick notes and the other widgets.
        const w = window as unknown as { commits: string[][] };
        w.commits = [];
        new MutationObserver(() => {
          const present = [...document.querySelectorAll('[data-testid="quick-notes"], [data-widget-id]')].map(
            (el) => el.getAttribute('data-widget-id') ?? 'quick-notes',
          );
          const last = w.commits[w.commits.length - 1];
          if (present.length > 0 && present.join() !== last?.join()) w.commits.push(present);
        }).observe(document, { childList: true, subtree: true });
      }, theme === 'light');
      await page.goto('/');
      await page.getByTestId('widget-monthly-pnl-chart').waitFor();
      await page.waitForLoadState('networkidle');
      const commits = await page.evaluate(() => (window as unknown as { commits: string[][] }).commits);
      const final = commits[commits.length - 1]!;
      // Every widget of the default layout, the calendar first, then the quick notes and the column in stored order.
      expect(final).toEqual([
        'tradelog-pnl-calendar',
        'quick-notes',
        ...(width === 390 ? ['forex-news', 'tasks', 'edgebook-score', 'all-time-winrate', 'month-winrate', 'monthly-pnl-chart'] : final.slice(2)),
      ]);
      expect(final).toHaveLength(8);
      if (width === 390) {
        // The calendar came alone, and what is below it came in steps, never all in one commit.
        expect(commits[0]).toEqual(['tradelog-pnl-calendar']);
        expect(commits.length).toBeGreaterThanOrEqual(5);
        for (let i = 1; i < commits.length; i++) expect(commits[i]!.length - commits[i - 1]!.length).toBeLessThanOrEqual(2);
      } else {
        expect(commits[0]).toHaveLength(8);
      }
    });
  }

  for (const [theme, width] of [
    ['light', 390],
    ['dark', 1440],
  ] as const) {
    it(`mounts no closed dropdown with the dashboard, and fetches at most ${FIRST_SCREEN_KB} kB of code and styles before the calendar's figures; the account picker and the task category open and choose (${theme}, ${width} px)`, async () => {
      const { context, page } = await suite.scenario({ width, height: width === 390 ? 844 : 900, colorScheme: theme });
      const client = await signedInTrader(suite.e2e.app, context, 'dropdowns');
      // A trade on the day before, on and after today's (UTC): one of them is in the trader's month, whatever the zone.
      for (const offset of [-1, 0, 1]) {
        const date = new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
        expect((await client.post('/api/trades', { date, period: 'AM', symbol: 'NQ', pnl: '125.00' })).status).toBe(201);
      }
      await context.addInitScript(() => {
        const watch = new MutationObserver(() => {
          if (!document.querySelector('[data-testid="day-pnl"]')) return;
          performance.mark('calendar-figures');
          watch.disconnect();
        });
        watch.observe(document, { childList: true, subtree: true });
      });
      await page.goto('/');
      await page.getByTestId('widget-tasks').waitFor();
      await page.waitForLoadState('networkidle');
      // The gzipped JavaScript and CSS that arrived before the PnL calendar showed its figures.
      const kB = await page.evaluate(() => {
        const at = performance.getEntriesByName('calendar-figures')[0]!.startTime;
        const fetched = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
          (e) => /\.(m?js|css)(\?|$)/.test(e.name) && e.responseEnd <= at,
        );
        return fetched.reduce((sum, e) => sum + e.encodedBodySize, 0) / 1000;
      });
      expect(kB).toBeGreaterThan(100);
      expect(kB).toBeLessThanOrEqual(FIRST_SCREEN_KB);
      // Each kept-mounted dropdown was placed by floating-ui during the first commit, forcing the new page's styles.
      expect(await page.locator('.mantine-Popover-dropdown').count()).toBe(0);

      const picker = page.getByTestId('account-selector');
      await picker.click();
      await page.getByRole('option', { name: 'All Trades' }).waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('option', { name: 'All Trades' }).waitFor({ state: 'detached' });

      const category = page.getByRole('combobox', { name: 'Category' });
      await category.click();
      await page.getByRole('option', { name: 'Psychology' }).click();
      expect(await category.inputValue()).toBe('Psychology');
      expect(await page.locator('.mantine-Popover-dropdown').count()).toBe(0);
      // From the keyboard too: the arrow opens the list and Enter chooses.
      await category.focus();
      await page.keyboard.press('ArrowDown');
      await page.getByRole('option', { name: 'Strategy' }).waitFor();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      expect(await category.inputValue()).not.toBe('Psychology');
    });
  }

  it("shows the shell's tooltips on pointing and on keyboard focus, the focus staying put, though none is mounted at first", async () => {
    const { context, page } = await suite.scenario({ width: 1440, height: 900 });
    await signedInAccount(suite.e2e.app, context, 'frame');
    await page.goto('/');
    await page.getByTestId('dashboard-toolbar').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.locator('.mantine-Tooltip-tooltip').count()).toBe(0);

    // The collapsed sidebar names its entries when pointed at, and stops when the pointer leaves.
    await page.getByTestId('nav-trade-log').hover();
    await page.getByRole('tooltip', { name: 'Trade Log' }).waitFor();
    await page.mouse.move(900, 600);
    await page.getByRole('tooltip', { name: 'Trade Log' }).waitFor({ state: 'hidden' });
    await page.getByTestId('trading-mode-toggle').hover();
    await page.getByRole('tooltip', { name: 'Enter trading mode' }).waitFor();
    await page.mouse.move(900, 600);

    // From the keyboard: the entry tabbed to keeps the focus while its tooltip appears, and Enter follows it.
    await page.getByTestId('nav-dashboard').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('nav-trade-log');
    await page.getByRole('tooltip', { name: 'Trade Log' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('nav-trade-log');
    await page.keyboard.press('Tab');
    await page.getByRole('tooltip', { name: 'Reports', exact: true }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('nav-reports');
    await page.keyboard.press('Tab');
    await page.getByRole('tooltip', { name: 'Playbooks', exact: true }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('nav-playbooks');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/playbooks');
  });
});
