import { expect } from 'vitest';
import { startTestApp, type ApiClient, type Backend, type TestApp } from '../support/app';
import {
  halfTurns,
  startProjectXServer,
  STAND_IN_CONTRACTS,
  type ProjectXStandIn,
  type StandInAccount,
  type StandInContract,
  type StandInTrade,
} from '../support/projectx-server';

/** Helpers of the broker-connection API tests: a server pointed at the ProjectX stand-in, and trades. */

export const KEY = 'px-key-7f3a9c1e5b2d4680aa11';
export const OTHER_KEY = 'px-key-bob-0c9e8d7f6a5b4c3d2e1f';

export const [MNQ, MES, NQ] = STAND_IN_CONTRACTS as [StandInContract, StandInContract, StandInContract];

const DAY = 86_400_000;

/** 10:00 New York (14:00 UTC) on a weekday at least `daysAgo` days ago: a regular session's trading day. */
export function weekdayAgo(daysAgo: number): Date {
  let at = new Date(Date.now() - daysAgo * DAY);
  at = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate(), 14));
  while (at.getUTCDay() === 0 || at.getUTCDay() === 6) at = new Date(at.getTime() - DAY);
  return at;
}

export const dayOf = (at: Date) => at.toISOString().slice(0, 10);
export const plus = (at: Date, minutes: number, seconds = 0, ms = 0) => new Date(at.getTime() + minutes * 60_000 + seconds * 1000 + ms).toISOString();

export function account(id: number, name: string, userName: string, extra: Partial<StandInAccount> = {}): StandInAccount {
  return { id, name, balance: 50_000, canTrade: true, isVisible: true, simulated: true, active: true, userName, ...extra };
}

let nextFillId = 7_000_000;
/**
 * One round trip as the gateway records it: the entry half-turns (profitAndLoss null) and the exit half-turns with
 * their P&L, fees per contract and side ($0.37 a micro, $1.40 an E-mini).
 */
export function roundTrip(
  accountId: number,
  contract: StandInContract,
  trip: { side: 'Long' | 'Short'; entries: Array<[number, number, string]>; exits: Array<[number, number, string]> },
): StandInTrade[] {
  const fee = contract.tickValue >= 5 ? 1.4 : 0.37;
  const pointValue = contract.tickValue / contract.tickSize;
  const open = trip.side === 'Long' ? 'Buy' : 'Sell';
  const close = trip.side === 'Long' ? 'Sell' : 'Buy';
  const entrySize = trip.entries.reduce((n, [size]) => n + size, 0);
  const average = trip.entries.reduce((sum, [size, price]) => sum + size * price, 0) / entrySize;
  const fills = [
    ...trip.entries.map(([size, price, at]) => ({ side: open as 'Buy' | 'Sell', size, price, at, fees: round(fee * size), pnl: null })),
    ...trip.exits.map(([size, price, at]) => ({
      side: close as 'Buy' | 'Sell',
      size,
      price,
      at,
      fees: round(fee * size),
      pnl: round((trip.side === 'Long' ? price - average : average - price) * size * pointValue),
    })),
  ];
  const made = halfTurns(accountId, contract, fills, nextFillId);
  nextFillId += fills.length;
  return made;
}

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * TopstepX's trades export of round trips of one lot per entry (one row per FIFO pair, times to the second with their
 * offset, Fees per pair), as its trades export writes them.
 */
export function topstepxExport(
  rows: Array<{ contract: string; side: 'Long' | 'Short'; size: number; entry: [number, string]; exit: [number, string]; fees: number }>,
): string {
  const stamp = (iso: string) => {
    const d = new Date(iso);
    const p = (n: number) => String(n).padStart(2, '0');
    return `${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +00:00`;
  };
  const lines = ['Id,ContractName,EnteredAt,ExitedAt,EntryPrice,ExitPrice,Fees,PnL,Size,Type,TradeDay,TradeDuration,Commissions'];
  rows.forEach((r, i) => {
    lines.push(
      [
        i + 1,
        r.contract,
        stamp(r.entry[1]),
        stamp(r.exit[1]),
        r.entry[0].toFixed(9),
        r.exit[0].toFixed(9),
        r.fees.toFixed(5),
        '0',
        r.size,
        r.side,
        '',
        '',
        '0',
      ].join(','),
    );
  });
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

export interface ConnectedApp {
  app: TestApp;
  px: ProjectXStandIn;
  /** Every response body the tests' clients received, as text: the API key must be in none. */
  answers: string[];
  trader(prefix?: string): Promise<ApiClient>;
  close(): Promise<void>;
}

/** A server on `backend` whose PROJECTX_API_URL is a fresh stand-in. */
export async function startConnectedApp(
  backend: Backend,
  env: Record<string, string> = {},
  standIn: Parameters<typeof startProjectXServer>[0] = { users: [] },
): Promise<ConnectedApp> {
  const px = await startProjectXServer({
    ...standIn,
    users: [{ userName: 'alice.px', apiKey: KEY }, { userName: 'bob.px', apiKey: OTHER_KEY }, ...standIn.users],
  });
  const app = await startTestApp({ backend, env: { PROJECTX_API_URL: px.url, PROJECTX_TIMEOUT: '5', ...env } });
  const answers: string[] = [];
  return {
    app,
    px,
    answers,
    async trader(prefix = 'px') {
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
      await px.close();
    },
  };
}

/** Waits for the sync this server runs for the connection, and answers the connection as the trader sees it. */
export async function synced(ctx: ConnectedApp, client: ApiClient, connectionId: string) {
  await ctx.app.server.connections.syncs.current(connectionId);
  const res = await client.get(`/api/connections/${connectionId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Starts a sync and waits for it. */
export async function syncNow(ctx: ConnectedApp, client: ApiClient, connectionId: string) {
  const started = await client.post(`/api/connections/${connectionId}/sync`);
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  return synced(ctx, client, connectionId);
}
