import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../tests/support/app';
import { AccountSettings } from './pages/account-settings';
import { TradeDetailsPage } from './pages/trade-details';
import { signedInTrader } from './pages/trade-log';
import { eventually, useE2ESuite } from './support/scenario';

/**
 * Sharing a trade in Chromium: the trader makes a link with dollar amounts and account names hidden, a visitor who is
 * signed out opens it on a phone and reads the trade in R with no dollar figure and no account name, and once the
 * trader revokes it in Settings the same address is the page of an unknown link.
 */

const suite = useE2ESuite();

async function api<T = any>(client: ApiClient, method: string, path: string, body?: unknown): Promise<T> {
  const res = await client.json(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body as T;
}

describe('share links', () => {
  it('shares a trade with amounts hidden: a signed-out visitor sees R and no dollar amount, until the link is revoked', async () => {
    const trader = await suite.scenario();
    const client = await signedInTrader(suite.e2e.app, trader.context, 'sharer');
    const account = await api<{ id: string }>(client, 'POST', '/api/accounts', { name: 'Topstep 50K Combine' });
    // +$412.50 on a $250 plan: +1.65R; Long from 20000 to 20010: +0.05%.
    const trade = await api<{ id: string }>(client, 'POST', '/api/trades', {
      account_id: account.id,
      period: 'AM',
      date: '2025-03-04',
      symbol: 'NQ',
      side: 'Long',
      quantity: 1,
      entry_price: 20000,
      exit_price: 20010,
      risk_amount: 250,
      pnl: 412.5,
      commission: 4.5,
    });

    const details = new TradeDetailsPage(trader.page);
    await details.goto(trade.id);
    expect(await details.pnl.innerText()).toBe('$412.50');
    await trader.page.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = trader.page.getByRole('dialog', { name: 'Share this trade' });
    await dialog.getByLabel('Hide dollar amounts (show R and percentages)').check();
    await dialog.getByLabel('Hide account names').check();
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const url = await dialog.getByTestId('share-url').inputValue();
    expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole('button', { name: 'Done' }).click();

    // A visitor with a fresh profile (no session), on a phone.
    const visitor = await suite.scenario({ width: 390, height: 844, colorScheme: 'light' });
    const opened = await visitor.page.goto(url);
    expect(opened!.status()).toBe(200);
    expect(opened!.headers()['x-robots-tag']).toContain('noindex');
    const text = await visitor.page.locator('body').innerText();
    expect(await visitor.page.getByRole('heading', { level: 1 }).innerText()).toBe('NQ Long');
    expect(text).toContain('+1.65R');
    expect(text).toContain('+0.05%');
    expect(text).not.toContain('$');
    expect(text).not.toContain('412');
    expect(text).not.toContain('Topstep');
    expect(await visitor.page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex, nofollow');
    // Drawn by the server, without the app: no script, and it fits the phone's width.
    expect(await visitor.page.locator('script').count()).toBe(0);
    expect(await visitor.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    const settings = new AccountSettings(trader.page);
    await settings.open('Shared Links');
    const row = settings.dialog.getByTestId('shared-link').filter({ hasText: 'NQ Long, 2025-03-04' });
    expect(await row.getByTestId('shared-link-views').innerText()).toBe('1');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await eventually(() => row.getByTestId('shared-link-status').innerText()).toBe('Revoked');

    const again = await visitor.page.goto(url);
    expect(again!.status()).toBe(404);
    expect(await visitor.page.getByRole('heading', { level: 1 }).innerText()).toBe('Link not found');
    expect(await visitor.page.locator('body').innerText()).not.toContain('NQ');
  });
});
