import { expect } from 'vitest';
import { startTestApp, type ApiClient, type Backend, type TestApp } from '../support/app';
import { startBinanceServer, type BinanceStandIn } from '../support/binance-server';
import { startBybitServer, type BybitStandIn } from '../support/bybit-server';
import { startHyperliquidServer, type HyperliquidStandIn } from '../support/hyperliquid-server';

/** Helpers of the crypto exchange connection tests: a server pointed at the exchanges' stand-ins. */

export const BINANCE_KEY = 'aliceBinanceKey0000000000000000000000000000000000000000000007f3a';
export const BINANCE_SECRET = 'aliceBinanceSecret00000000000000000000000000000000000000000c0de';
export const BOB_BINANCE_KEY = 'bobBinanceKey00000000000000000000000000000000000000000000000b0b1';
export const BOB_BINANCE_SECRET = 'bobBinanceSecret000000000000000000000000000000000000000000000b0b2';
export const BYBIT_KEY = 'aliceBybitKey00000b1b1';
export const BYBIT_SECRET = 'aliceBybitSecret0000000000000000000c0de';
export const ALICE_WALLET = '0x31ca8395cf837de08b24da3f660e77761dfb974b';
/** Every secret the tests hand out: none may reach an answer, a log line or an export. */
export const SECRETS = [BINANCE_KEY, BINANCE_SECRET, BOB_BINANCE_KEY, BOB_BINANCE_SECRET, BYBIT_KEY, BYBIT_SECRET];

export const DAY = 86_400_000;

export interface ExchangeApp {
  app: TestApp;
  binance: BinanceStandIn;
  bybit: BybitStandIn;
  hyperliquid: HyperliquidStandIn;
  /** Every response body the tests' clients received, as text. */
  answers: string[];
  trader(prefix?: string): Promise<ApiClient>;
  close(): Promise<void>;
}

export async function startExchangeApp(backend: Backend): Promise<ExchangeApp> {
  const binance = await startBinanceServer({
    keys: [
      { apiKey: BINANCE_KEY, apiSecret: BINANCE_SECRET, account: 'alice' },
      { apiKey: BOB_BINANCE_KEY, apiSecret: BOB_BINANCE_SECRET, account: 'bob' },
      {
        apiKey: 'withdrawing-key-0000000000000000000000000000000000000000000000001',
        apiSecret: 'withdrawing-secret',
        account: 'alice',
        restrictions: { enableWithdrawals: true },
      },
      {
        apiKey: 'trading-key-000000000000000000000000000000000000000000000000000002',
        apiSecret: 'trading-secret',
        account: 'alice',
        restrictions: { enableFutures: true },
      },
    ],
  });
  const bybit = await startBybitServer({ keys: [{ apiKey: BYBIT_KEY, apiSecret: BYBIT_SECRET, uid: 'alice' }] });
  const hyperliquid = await startHyperliquidServer();
  const app = await startTestApp({
    backend,
    env: {
      BINANCE_FUTURES_API_URL: binance.url,
      BINANCE_API_URL: binance.url,
      BYBIT_API_URL: bybit.url,
      HYPERLIQUID_API_URL: hyperliquid.url,
      EXCHANGE_TIMEOUT: '5',
    },
  });
  const answers: string[] = [];
  return {
    app,
    binance,
    bybit,
    hyperliquid,
    answers,
    async trader(prefix = 'ex') {
      const client = app.client();
      const json = client.json.bind(client);
      client.json = async (method, path, body) => {
        const res = await json(method, path, body);
        answers.push(JSON.stringify(res.body));
        return res;
      };
      const res = await client.signUp(`${prefix}-${Math.random().toString(16).slice(2, 10)}@example.com`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return client;
    },
    async close() {
      await app.close();
      await Promise.all([binance.close(), bybit.close(), hyperliquid.close()]);
    },
  };
}

/** Starts a sync, waits for it, and answers the connection as the trader sees it. */
export async function syncExchange(ctx: ExchangeApp, client: ApiClient, connectionId: string) {
  const started = await client.post(`/api/connections/${connectionId}/sync`);
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  await ctx.app.server.connections.syncs.current(connectionId);
  const res = await client.get(`/api/connections/${connectionId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Midnight UTC `days` ago, plus `hours`. */
export function utcDaysAgo(days: number, hours = 0): number {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - days * DAY + hours * 3_600_000;
}

export const dayOfMs = (ms: number) => new Date(ms).toISOString().slice(0, 10);
