import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { listAll } from '../tests/api/trades-support';
import { account, KEY, MES, MNQ, plus, roundTrip, weekdayAgo } from '../tests/api/connections-support';
import { startProjectXServer, type ProjectXStandIn } from '../tests/support/projectx-server';
import { PropAccountPage } from './pages/prop';
import { signedInTrader } from './pages/trade-log';
import { seriousA11yViolations } from './support/a11y';
import { eventually, SCREEN_PAIRS, useAppTheme, useE2ESuite } from './support/scenario';

/**
 * From the Trade Log to Broker Connections, test and connect a TopstepX login (a stand-in of
 * the ProjectX Gateway), give its account a new trading account, take the offer to track it as a prop account of the
 * plan its name says, Sync now with its progress, and the outcome; the prop status counts the trades, and they are in
 * the journal. Once per screen pairing (a phone in the light theme, a desktop in the dark one).
 */
let gateway: ProjectXStandIn;
const suite = useE2ESuite(async () => {
  gateway = await startProjectXServer({ users: SCREEN_PAIRS.map((pair) => ({ userName: `${pair.name}.px`, apiKey: KEY })) });
  // The gateway's one-minute bars around the trades below (an hour either side of 10:00 New York).
  const from = weekdayAgo(3).getTime() - 60 * 60_000;
  const bars = (price: number) =>
    Array.from({ length: 120 }, (_, i) => ({
      t: new Date(from + i * 60_000).toISOString(),
      o: price,
      h: price + 2,
      l: price - 2,
      c: price + 1,
      v: 50,
    }));
  gateway.bars = new Map([
    [MNQ.id, bars(20_000)],
    [MES.id, bars(5_600)],
  ]);
  return { env: { PROJECTX_API_URL: gateway.url } };
});
afterAll(() => gateway?.close());
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-connections-'));

async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

describe('connecting TopstepX and syncing', () => {
  it.each(SCREEN_PAIRS)(
    '$name, $theme: connect, map an account to a new trading account, sync, see the trades',
    async ({ name, width, height, theme }) => {
      const s = await suite.scenario({ width, height, colorScheme: theme });
      await useAppTheme(s.context, theme);
      const api = await signedInTrader(suite.e2e.app, s.context, `px-${name}`);
      const external = name === 'phone' ? 6001 : 6101;
      const day = weekdayAgo(3);
      gateway.accounts.push(
        account(external, `50KTC-V2-${external}`, `${name}.px`),
        account(external + 1, `PRAC-V2-${external + 1}`, `${name}.px`, { active: false, canTrade: false, balance: 49_120.75 }),
      );
      gateway.trades.push(
        ...roundTrip(external, MNQ, {
          side: 'Long',
          entries: [
            [1, 20000, plus(day, 0)],
            [1, 20001, plus(day, 1)],
          ],
          exits: [[2, 20004, plus(day, 6)]],
        }),
        ...roundTrip(external, MES, { side: 'Short', entries: [[1, 5600, plus(day, 10)]], exits: [[1, 5597.5, plus(day, 14)]] }),
      );
      const { page } = s;

      await page.goto('/trade-log');
      await page.getByTestId('open-connections').click();
      await page.getByRole('heading', { name: 'Broker Connections', level: 1 }).waitFor();
      const form = page.getByTestId('connect-form');
      await form.getByLabel('TopstepX user name').fill(`${name}.px`);
      await form.getByLabel('API key').fill('a wrong key');
      await form.getByTestId('connect-test').click();
      await eventually(() => form.getByTestId('connect-error').innerText()).toContain('TopstepX refused this user name and API key');
      await form.getByLabel('API key').fill(KEY);
      await form.getByTestId('connect-test').click();
      await eventually(() => form.getByTestId('connect-tested').innerText()).toContain('TopstepX accepted the key: 2 accounts.');
      await shot(page, `${name}-${theme}-1-tested`);
      await form.getByTestId('connect-submit').click();

      const card = page.getByTestId('connection-card');
      await card.waitFor();
      expect(await card.getByTestId('connection-status').textContent()).toBe('Connected');
      const combine = card.locator(`[data-testid="broker-account"][data-name="50KTC-V2-${external}"]`);
      await combine.getByLabel('Trading account').click();
      await page.getByRole('option', { name: 'New trading account…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create Trading Account' });
      await dialog.waitFor();
      expect(await dialog.getByTestId('account-name').inputValue()).toBe(`50KTC-V2-${external}`);
      await dialog.getByTestId('account-submit').click();
      // The offer to track it as a prop account, its plan read from its name; taken.
      const offer = page.getByRole('dialog', { name: 'Track it as a prop account?' });
      await offer.waitFor();
      expect(await offer.getByLabel('Plan').inputValue()).toBe('Topstep Trading Combine 50K');
      expect(await offer.getByTestId('prop-offer-summary').innerText()).toContain(
        `50KTC-V2-${external} becomes a Topstep evaluation account of $50,000.00`,
      );
      await shot(page, `${name}-${theme}-1b-prop-offer`);
      await offer.getByTestId('prop-offer-accept').click();
      await offer.waitFor({ state: 'detached' });
      await eventually(() => combine.getByLabel('Trading account').inputValue()).toBe(`50KTC-V2-${external}`);
      await combine.getByTestId('broker-account-from').waitFor();
      const standing = combine.getByTestId('broker-account-prop');
      await eventually(() => standing.innerText()).toContain('Topstep Trading Combine 50K');
      expect(await standing.getByTestId('broker-account-prop-state').innerText()).toBe('On track');

      // A slow gateway, so the sync's progress can be seen.
      gateway.delay('Trade/search', 1200, 2);
      await card.getByTestId('connection-sync').click();
      await card.getByTestId('connection-progress').waitFor();
      await shot(page, `${name}-${theme}-2-syncing`);
      // The bars of the replays (5 minutes either side of each trade: 17 of MNQ, 15 of MES) are shared by all traders:
      // the second pairing's trades, at the same minutes, find them stored.
      const barsStored = name === SCREEN_PAIRS[0]!.name ? ', 32 one-minute bars stored for replay.' : '.';
      await eventually(() => card.getByTestId('connection-outcome').innerText()).toContain(`Synced just now: 2 trades added${barsStored}`);
      await eventually(() => combine.getByTestId('broker-account-status').innerText()).toBe('Synced just now: 2 trades added.');
      // The inactive practice account is listed, not synced.
      expect(await card.locator('[data-testid="broker-account"][data-name^="PRAC-V2"]').getByTestId('broker-account-status').innerText()).toBe(
        'Choose a trading account to sync it.',
      );
      // The trader is told how it went, in a toast that closes by itself.
      const toast = page.locator('.mantine-Notification-root');
      await eventually(() => toast.innerText()).toContain('2 trades added.');
      await shot(page, `${name}-${theme}-3-synced`);
      await toast.waitFor({ state: 'detached', timeout: 15_000 });
      const violations = await seriousA11yViolations(page);
      expect(violations, violations.join('\n')).toEqual([]);

      // The prop account's status counts the synced trades: on its Rules & Status page, $24.28 of the $3,000 target.
      await standing.getByRole('link', { name: 'Rules & Status' }).click();
      const propPage = new PropAccountPage(page);
      await propPage.ready();
      expect(await propPage.text('prop-state')).toBe('On track');
      expect(await propPage.ruleFigure('profitTarget')).toBe('$2,975.72 to go');
      await shot(page, `${name}-${theme}-3b-prop-status`);

      const trades = await listAll(api);
      expect(trades.map((t) => [t.symbol, t.side, t.pnl]).sort()).toEqual([
        ['MES', 'Short', '11.76'],
        ['MNQ', 'Long', '12.52'],
      ]);
      // And the Trade Log shows them.
      await page.goto('/trade-log');
      await eventually(() => page.getByTestId('trades-panel').innerText()).toContain('MES');
      await shot(page, `${name}-${theme}-4-trade-log`);
    },
  );
});
