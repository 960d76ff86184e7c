import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { listAll } from '../tests/api/trades-support';
import { binanceRoundTrip, startBinanceServer, type BinanceStandIn } from '../tests/support/binance-server';
import { bybitRoundTrip, startBybitServer, type BybitStandIn } from '../tests/support/bybit-server';
import { hyperliquidFills, startHyperliquidServer, type HyperliquidStandIn } from '../tests/support/hyperliquid-server';
import { signedInTrader } from './pages/trade-log';
import { seriousA11yViolations } from './support/a11y';
import { eventually, useE2ESuite } from './support/scenario';

/**
 * Crypto perpetuals in the browser: on Broker Connections, connect Binance with a read-only key and its secret (a
 * wrong secret first), Bybit the same way, and Hyperliquid with a wallet address alone; give each its account a new
 * trading account, Sync now, and see the trades in the Trade Log in USDT and USDC, never in dollars.
 */
const BINANCE_KEY = 'e2eBinanceKey000000000000000000000000000000000000000000000000a1b2';
const BINANCE_SECRET = 'e2eBinanceSecret0000000000000000000000000000000000000000000000';
const BYBIT_KEY = 'e2eBybitKey0000c3d4';
const BYBIT_SECRET = 'e2eBybitSecret000000000000000000000000';
const WALLET = '0x5b5d51203a0f9079f8aeb098a6523a13f298c060';
const HOUR = 3_600_000;

let binance: BinanceStandIn;
let bybit: BybitStandIn;
let hyperliquid: HyperliquidStandIn;
const suite = useE2ESuite(async () => {
  binance = await startBinanceServer({ keys: [{ apiKey: BINANCE_KEY, apiSecret: BINANCE_SECRET, account: 'e2e' }] });
  bybit = await startBybitServer({ keys: [{ apiKey: BYBIT_KEY, apiSecret: BYBIT_SECRET, uid: 'e2e' }] });
  hyperliquid = await startHyperliquidServer();
  return {
    env: { BINANCE_FUTURES_API_URL: binance.url, BINANCE_API_URL: binance.url, BYBIT_API_URL: bybit.url, HYPERLIQUID_API_URL: hyperliquid.url },
  };
});
afterAll(async () => Promise.all([binance?.close(), bybit?.close(), hyperliquid?.close()]));

/** Noon UTC `days` ago. */
const noonDaysAgo = (days: number) => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - days, 12);
};

async function connect(page: Page, provider: string, fill: (form: ReturnType<Page['getByTestId']>) => Promise<void>, accounts: string) {
  const form = page.getByTestId('connect-form');
  await form.getByTestId('connect-provider').getByText(provider, { exact: true }).click();
  await fill(form);
  await form.getByTestId('connect-test').click();
  await eventually(() => form.getByTestId('connect-tested').innerText()).toContain(accounts);
  await form.getByTestId('connect-submit').click();
  const card = page.locator(`[data-testid="connection-card"]`).filter({ has: page.getByRole('heading', { name: provider, level: 2 }) });
  await card.waitFor();
  return card;
}

async function mapToNewAccount(page: Page, card: ReturnType<Page['locator']>, name: string) {
  const row = card.locator(`[data-testid="broker-account"][data-name="${name}"]`);
  await row.getByLabel('Trading account').click();
  await page.getByRole('option', { name: 'New trading account…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Trading Account' });
  await dialog.waitFor();
  await dialog.getByTestId('account-submit').click();
  await dialog.waitFor({ state: 'detached' });
  await row.getByTestId('broker-account-from').waitFor();
}

describe('connecting crypto exchanges and syncing', () => {
  it('Binance, Bybit and Hyperliquid: connect, map, sync, and their trades in USDT and USDC', async () => {
    const s = await suite.scenario({ width: 1280, height: 900, colorScheme: 'light' });
    const api = await signedInTrader(suite.e2e.app, s.context, 'crypto');
    const day = noonDaysAgo(3);
    for (const trip of [
      binanceRoundTrip('e2e', 'BTCUSDT', { side: 'Long', entries: [['0.01', '60000', day]], exits: [['0.01', '60500', day + HOUR]] }),
    ]) {
      binance.trades.push(...trip.trades);
      binance.income.push(...trip.income);
    }
    binance.balances.push({ account: 'e2e', asset: 'USDT', balance: '4200.5' });
    const bb = bybitRoundTrip('e2e', 'ETHUSDT', { side: 'Short', entries: [['1', '3010', day + 2 * HOUR]], exits: [['1', '3000', day + 3 * HOUR]] });
    bybit.executions.push(...bb.executions);
    bybit.closedPnl.push(...bb.closedPnl);
    hyperliquid.fills.push(
      ...hyperliquidFills(WALLET, 'SOL', [
        ['10', '150', day + 4 * HOUR],
        ['-10', '152', day + 5 * HOUR],
      ]),
    );
    hyperliquid.accounts.set(WALLET, '900');
    const { page } = s;

    await page.goto('/connections');
    await page.getByRole('heading', { name: 'Broker Connections', level: 1 }).waitFor();

    // Binance: a wrong secret is refused in words, then the right one.
    const form = page.getByTestId('connect-form');
    await form.getByTestId('connect-provider').getByText('Binance', { exact: true }).click();
    expect(await form.getByTestId('connect-scope').innerText()).toContain('Coin-margined (inverse) contracts are not supported yet');
    await form.getByLabel('API key').fill(BINANCE_KEY);
    await form.getByLabel('Secret key').fill('not-the-secret');
    await form.getByTestId('connect-test').click();
    await eventually(() => form.getByTestId('connect-error').innerText()).toContain('the secret key does not belong to this API key');
    const binanceCard = await connect(
      page,
      'Binance',
      async (f) => {
        await f.getByLabel('Secret key').fill(BINANCE_SECRET);
      },
      'USD-M futures · USDT · 4,200.50 USDT',
    );
    expect(await binanceCard.innerText()).toContain('API key ending in a1b2');
    expect(await binanceCard.innerText()).not.toContain(BINANCE_KEY);
    await mapToNewAccount(page, binanceCard, 'USD-M futures · USDT');
    await binanceCard.getByTestId('connection-sync').click();
    await eventually(() => binanceCard.getByTestId('connection-outcome').innerText()).toContain('1 trade added');

    // Bybit, from "Connect another account".
    await page.getByRole('button', { name: 'Connect another account' }).click();
    const bybitCard = await connect(
      page,
      'Bybit',
      async (f) => {
        await f.getByLabel('API key').fill(BYBIT_KEY);
        await f.getByLabel('Secret key').fill(BYBIT_SECRET);
      },
      'Bybit accepted the key: 2 accounts.',
    );
    await mapToNewAccount(page, bybitCard, 'USDT perpetuals');
    await bybitCard.getByTestId('connection-sync').click();
    await eventually(() => bybitCard.getByTestId('connection-outcome').innerText()).toContain('1 trade added');

    // Hyperliquid: a wallet address, nothing secret.
    await page.getByRole('button', { name: 'Connect another account' }).click();
    const hlCard = await connect(
      page,
      'Hyperliquid',
      async (f) => {
        expect(await f.getByLabel('API key').count()).toBe(0);
        await f.getByLabel('Wallet address').fill(WALLET);
      },
      'Hyperliquid found the wallet: 1 account.',
    );
    await mapToNewAccount(page, hlCard, 'Perpetuals · USDC');
    await hlCard.getByTestId('connection-sync').click();
    await eventually(() => hlCard.getByTestId('connection-outcome').innerText()).toContain('1 trade added');
    const violations = await seriousA11yViolations(page);
    expect(violations, violations.join('\n')).toEqual([]);

    const trades = await listAll(api);
    expect(trades.map((t) => [t.contract, t.pnl]).sort()).toEqual([
      ['BINANCE:BTCUSDT.P', '4.52'],
      ['BYBIT:ETHUSDT.P', '6.69'],
      ['HYPERLIQUID:SOLUSDC.P', '18.94'],
    ]);
    // The Trade Log (of the default account, the first one made: Binance's) writes its trade in USDT, never dollars.
    await page.goto('/trade-log');
    const panel = page.getByTestId('trades-panel');
    await eventually(() => panel.innerText()).toContain('4.52 USDT');
    expect(await panel.innerText()).not.toContain('$');
    // A trade's page, in its currency.
    const sol = trades.find((t) => t.contract === 'HYPERLIQUID:SOLUSDC.P')!;
    await page.goto(`/trade/${sol.id}`);
    await eventually(() => page.getByTestId('trade-pnl-header').innerText()).toBe('18.94 USDC');
  });
});
