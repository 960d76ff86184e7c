import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A stand-in for Hyperliquid's public info API (POST /info), written from Hyperliquid's public API documentation, over
 * real HTTP. No key: a wallet's history is public, asked for by its address (`user`: 0x and 40 hexadecimal digits;
 * anything else is HTTP 422, the answer to a body that does not deserialize).
 *
 * - clearinghouseState {user}: the account's margin summary. meta: the perpetuals (name, szDecimals).
 * - userFillsByTime {user, startTime, endTime?}: fills in the span (both ends included), oldest first, at most 2,000
 *   an answer, of the wallet's 10,000 most recent; the next page starts at the last fill's time.
 * - userFunding {user, startTime, endTime?}: funding payments ({time, hash, delta: {type: 'funding', coin, usdc, szi,
 *   fundingRate}}), at most 500 an answer.
 * - candleSnapshot {req: {coin, interval, startTime, endTime}}: candles {t, T, s, i, o, c, h, l, v, n}, at most 5,000.
 * - Weights: 2 for clearinghouseState, 20 for the rest, plus 1 per 20 fills or payments and per 60 candles answered;
 *   an IP may spend `weightPerMinute` (1,200) a minute, and gets HTTP 429 past it.
 */

export interface HyperliquidFill {
  user: string;
  coin: string;
  px: string;
  sz: string;
  side: 'B' | 'A';
  time: number;
  startPosition: string;
  dir: string;
  closedPnl: string;
  hash: string;
  oid: number;
  crossed: boolean;
  fee: string;
  tid: number;
  feeToken: string;
}

export interface HyperliquidFunding {
  user: string;
  time: number;
  coin: string;
  usdc: string;
  szi: string;
  fundingRate: string;
}

export interface HyperliquidCall {
  type: string;
  status: number;
  body: Record<string, unknown>;
  at: number;
}

export interface HyperliquidStandIn {
  url: string;
  calls: HyperliquidCall[];
  fills: HyperliquidFill[];
  funding: HyperliquidFunding[];
  accounts: Map<string, string>;
  candles: Map<string, Array<{ t: number; o: string; h: string; l: string; c: string; v: string }>>;
  weightPerMinute: number;
  count(type: string, status?: number): number;
  close(): Promise<void>;
}

const UNIVERSE = [
  { name: 'BTC', szDecimals: 5, maxLeverage: 40 },
  { name: 'ETH', szDecimals: 4, maxLeverage: 25 },
  { name: 'SOL', szDecimals: 2, maxLeverage: 20 },
  { name: 'kPEPE', szDecimals: 0, maxLeverage: 10 },
];

export async function startHyperliquidServer(options: { weightPerMinute?: number } = {}): Promise<HyperliquidStandIn> {
  const state = {
    fills: [] as HyperliquidFill[],
    funding: [] as HyperliquidFunding[],
    accounts: new Map<string, string>(),
    candles: new Map<string, Array<{ t: number; o: string; h: string; l: string; c: string; v: string }>>(),
    weightPerMinute: options.weightPerMinute ?? 1200,
  };
  const calls: HyperliquidCall[] = [];
  const spent = new Map<string, Array<[number, number]>>();
  const sockets = new Set<Socket>();
  const isAddress = (value: unknown) => typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value);

  function handle(body: Record<string, unknown>): { status: number; json: unknown; weight: number } {
    const user = typeof body.user === 'string' ? body.user.toLowerCase() : '';
    switch (body.type) {
      case 'meta':
        return { status: 200, json: { universe: UNIVERSE }, weight: 20 };
      case 'clearinghouseState': {
        if (!isAddress(body.user)) return { status: 422, json: 'Failed to deserialize the JSON body into the target type', weight: 2 };
        const value = state.accounts.get(user) ?? '0.0';
        return {
          status: 200,
          json: {
            marginSummary: { accountValue: value, totalNtlPos: '0.0', totalRawUsd: value, totalMarginUsed: '0.0' },
            withdrawable: value,
            assetPositions: [],
            time: Date.now(),
          },
          weight: 2,
        };
      }
      case 'userFillsByTime': {
        if (!isAddress(body.user) || typeof body.startTime !== 'number')
          return { status: 422, json: 'Failed to deserialize the JSON body into the target type', weight: 20 };
        const end = typeof body.endTime === 'number' ? body.endTime : Date.now();
        const mine = state.fills.filter((f) => f.user === user).sort((a, b) => a.time - b.time || a.tid - b.tid);
        const recent = mine.slice(-10_000);
        const rows = recent
          .filter((f) => f.time >= (body.startTime as number) && f.time <= end)
          .slice(0, 2000)
          .map(({ user: _, ...f }) => f);
        return { status: 200, json: rows, weight: 20 + Math.floor(rows.length / 20) };
      }
      case 'userFunding': {
        if (!isAddress(body.user) || typeof body.startTime !== 'number')
          return { status: 422, json: 'Failed to deserialize the JSON body into the target type', weight: 20 };
        const end = typeof body.endTime === 'number' ? body.endTime : Date.now();
        const rows = state.funding
          .filter((f) => f.user === user && f.time >= (body.startTime as number) && f.time <= end)
          .sort((a, b) => a.time - b.time)
          .slice(0, 500)
          .map((f) => ({
            time: f.time,
            hash: '0x0000000000000000000000000000000000000000000000000000000000000000',
            delta: { type: 'funding', coin: f.coin, usdc: f.usdc, szi: f.szi, fundingRate: f.fundingRate, nSamples: null },
          }));
        return { status: 200, json: rows, weight: 20 + Math.floor(rows.length / 20) };
      }
      case 'candleSnapshot': {
        const req = (body.req ?? {}) as { coin?: string; interval?: string; startTime?: number; endTime?: number };
        if (req.interval !== '1m' || typeof req.startTime !== 'number')
          return { status: 422, json: 'Failed to deserialize the JSON body into the target type', weight: 20 };
        const rows = (state.candles.get(req.coin ?? '') ?? [])
          .filter((c) => c.t >= req.startTime! && c.t <= (req.endTime ?? Date.now()))
          .sort((a, b) => a.t - b.t)
          .slice(0, 5000)
          .map((c) => ({ ...c, T: c.t + 59_999, s: req.coin, i: '1m', n: 10 }));
        return { status: 200, json: rows, weight: 20 + Math.floor(rows.length / 60) };
      }
      default:
        return { status: 422, json: 'Failed to deserialize the JSON body into the target type', weight: 20 };
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        body = {};
      }
      const send = (status: number, json: unknown) => {
        calls.push({ type: String(body.type ?? ''), status, body, at: Date.now() });
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': typeof json === 'string' ? 'text/plain' : 'application/json' });
        res.end(typeof json === 'string' ? json : JSON.stringify(json));
      };
      if (req.method !== 'POST' || req.url !== '/info') return send(404, 'Not found');
      const ip = req.socket.remoteAddress ?? '';
      const now = Date.now();
      const recent = (spent.get(ip) ?? []).filter(([at]) => at > now - 60_000);
      const used = recent.reduce((n, [, w]) => n + w, 0);
      if (used >= state.weightPerMinute) {
        spent.set(ip, recent);
        return send(429, null);
      }
      const answer = handle(body);
      recent.push([now, answer.weight]);
      spent.set(ip, recent);
      send(answer.status, answer.json);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const standIn = {
    url: `http://127.0.0.1:${port}`,
    calls,
    count: (type: string, status = 200) => calls.filter((c) => c.type === type && c.status === status).length,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  for (const name of ['fills', 'funding', 'accounts', 'candles', 'weightPerMinute'] as const) {
    Object.defineProperty(standIn, name, {
      get: () => state[name],
      set: (value) => ((state as Record<string, unknown>)[name] = value),
      enumerable: true,
    });
  }
  return standIn as unknown as HyperliquidStandIn;
}

let nextTid = 900_000_000_000;
let nextOid = 70_000_000;

/**
 * Fills of one wallet and coin as Hyperliquid records them, each with the position before it, its direction and its
 * fee (0.035% of notional, in USDC), and the P&L a closing fill realized. `trades` are signed sizes: +0.1 buys 0.1.
 */
export function hyperliquidFills(user: string, coin: string, trades: Array<[signedSize: string, price: string, time: number]>): HyperliquidFill[] {
  let position = 0;
  let average = 0;
  return trades.map(([signed, px, time]) => {
    const size = Number(signed);
    const start = position;
    const end = start + size;
    let realized = 0;
    if (start !== 0 && Math.sign(size) !== Math.sign(start))
      realized = (Number(px) - average) * Math.min(Math.abs(size), Math.abs(start)) * Math.sign(start);
    if (end !== 0 && (start === 0 || Math.sign(end) !== Math.sign(start))) average = Number(px);
    else if (Math.sign(size) === Math.sign(start) || start === 0) average = (average * Math.abs(start) + Number(px) * Math.abs(size)) / Math.abs(end);
    position = end;
    const dir =
      start >= 0 && end > start
        ? 'Open Long'
        : start > 0 && end >= 0
          ? 'Close Long'
          : start <= 0 && end < start
            ? 'Open Short'
            : start < 0 && end <= 0
              ? 'Close Short'
              : start > 0
                ? 'Long > Short'
                : 'Short > Long';
    return {
      user: user.toLowerCase(),
      coin,
      px,
      sz: String(Math.abs(size)),
      side: size > 0 ? 'B' : 'A',
      time,
      startPosition: String(start),
      dir,
      closedPnl: realized.toFixed(6),
      hash: `0x${'ab'.repeat(32)}`,
      oid: nextOid++,
      crossed: true,
      fee: (Math.abs(size) * Number(px) * 0.00035).toFixed(6),
      tid: nextTid++,
      feeToken: 'USDC',
    };
  });
}
