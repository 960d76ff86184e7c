import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A stand-in for Binance's USD-M futures API (and the one spot endpoint that tells a key's permissions), written from
 * Binance's public API documentation, over real HTTP:
 *
 * - Signed endpoints (USER_DATA) take `timestamp` and `recvWindow` (default 5,000, at most 60,000) in the query and a
 *   `signature`: hex HMAC-SHA256 of the query string before it, under the key's secret; the key in X-MBX-APIKEY.
 *   A request is processed only if its timestamp is less than 1,000 ms ahead of the server's clock and at most
 *   recvWindow behind it (else -1021). A wrong signature is -1022; an unknown key, or a key used from an IP address it
 *   does not trust, -2015 ("Invalid API-key, IP, or permissions for action").
 * - Every endpoint has a weight; an IP may spend `weightPerMinute` (2,400) a minute, and each answer carries the weight
 *   spent in the current minute (X-MBX-USED-WEIGHT-1M). Past it: HTTP 429 with Retry-After; an IP that asks again in
 *   that minute is banned: HTTP 418 with Retry-After, for `banSeconds`.
 * - GET /fapi/v1/time, /fapi/v1/exchangeInfo, /fapi/v1/klines (public); GET /fapi/v2/balance, /fapi/v3/positionRisk,
 *   /fapi/v1/income (limit 100 by default, at most 1,000; the last 7 days without times; three months kept),
 *   /fapi/v1/userTrades (symbol required; at most 7 days between startTime and endTime (-1127 past it); fromId without
 *   times; limit 500 by default, at most 1,000; six months kept), /sapi/v1/account/apiRestrictions (signed).
 *
 * The stand-in's clock can run `clockOffsetMs` off this machine's, as a real exchange's would. Scriptable: the next
 * answers of an endpoint can be an HTTP status (with Retry-After) or a delay. Every call is recorded (without its
 * signature).
 */

export interface BinanceKey {
  apiKey: string;
  apiSecret: string;
  /** The account the key reads. */
  account: string;
  /** What apiRestrictions answers beyond its defaults (reading only). */
  restrictions?: Partial<
    Record<
      | 'ipRestrict'
      | 'enableReading'
      | 'enableWithdrawals'
      | 'enableInternalTransfer'
      | 'permitsUniversalTransfer'
      | 'enableFutures'
      | 'enableSpotAndMarginTrading'
      | 'enableMargin',
      boolean
    >
  >;
  /** When set, only these addresses may use the key. */
  trustedIps?: string[];
}

export interface BinanceSymbol {
  symbol: string;
  pair: string;
  contractType: 'PERPETUAL' | 'CURRENT_QUARTER' | 'NEXT_QUARTER';
  baseAsset: string;
  quoteAsset: string;
  marginAsset: string;
  pricePrecision: number;
  quantityPrecision: number;
  status: 'TRADING';
}

export interface BinanceTrade {
  account: string;
  symbol: string;
  id: number;
  orderId: number;
  side: 'BUY' | 'SELL';
  price: string;
  qty: string;
  quoteQty: string;
  realizedPnl: string;
  commission: string;
  commissionAsset: string;
  positionSide: 'BOTH' | 'LONG' | 'SHORT';
  buyer: boolean;
  maker: boolean;
  time: number;
}

export interface BinanceIncome {
  account: string;
  symbol: string;
  incomeType: 'REALIZED_PNL' | 'FUNDING_FEE' | 'COMMISSION' | 'TRANSFER';
  income: string;
  asset: string;
  info: string;
  time: number;
  tranId: number;
  tradeId: string;
}

export type BinanceKline = [number, string, string, string, string, string];

export interface BinanceCall {
  path: string;
  status: number;
  code: number | null;
  params: Record<string, string>;
  ip: string;
  at: number;
}

export interface BinanceStandIn {
  url: string;
  calls: BinanceCall[];
  keys: BinanceKey[];
  symbols: BinanceSymbol[];
  trades: BinanceTrade[];
  income: BinanceIncome[];
  balances: Array<{ account: string; asset: string; balance: string }>;
  positions: Array<{ account: string; symbol: string; positionAmt: string; positionSide: 'BOTH' | 'LONG' | 'SHORT' }>;
  klines: Map<string, BinanceKline[]>;
  clockOffsetMs: number;
  weightPerMinute: number;
  /** The next `times` calls of `path` answer `status` (with Retry-After `retryAfter` seconds when given). */
  fail(path: string, status: number, times?: number, retryAfter?: number, body?: unknown): void;
  delay(path: string, ms: number, times?: number): void;
  count(path: string, status?: number): number;
  /** The server's clock now. */
  now(): number;
  close(): Promise<void>;
}

export const BINANCE_SYMBOLS: BinanceSymbol[] = [
  perpetual('BTC', 'USDT', 2, 3),
  perpetual('ETH', 'USDT', 2, 3),
  perpetual('SOL', 'USDT', 4, 0),
  perpetual('BTC', 'USDC', 1, 3),
  perpetual('ETH', 'USDC', 2, 3),
];

function perpetual(base: string, quote: string, pricePrecision: number, quantityPrecision: number): BinanceSymbol {
  return {
    symbol: `${base}${quote}`,
    pair: `${base}${quote}`,
    contractType: 'PERPETUAL',
    baseAsset: base,
    quoteAsset: quote,
    marginAsset: quote,
    pricePrecision,
    quantityPrecision,
    status: 'TRADING',
  };
}

/** Weights as Binance documents them for these endpoints. */
function weightOf(path: string, params: URLSearchParams): number {
  switch (path) {
    case '/fapi/v1/income':
      return 30;
    case '/fapi/v1/userTrades':
    case '/fapi/v2/balance':
    case '/fapi/v3/positionRisk':
      return 5;
    case '/fapi/v1/klines': {
      const limit = Number(params.get('limit') ?? 500);
      return limit < 100 ? 1 : limit < 500 ? 2 : limit <= 1000 ? 5 : 10;
    }
    default:
      return 1;
  }
}

const SIGNED = new Set(['/fapi/v2/balance', '/fapi/v3/positionRisk', '/fapi/v1/income', '/fapi/v1/userTrades', '/sapi/v1/account/apiRestrictions']);
const DAY = 86_400_000;

type Scripted = { kind: 'status'; status: number; retryAfter?: number; body?: unknown } | { kind: 'delay'; ms: number };

export async function startBinanceServer(options: {
  keys: BinanceKey[];
  symbols?: BinanceSymbol[];
  clockOffsetMs?: number;
  weightPerMinute?: number;
  banSeconds?: number;
}): Promise<BinanceStandIn> {
  const state = {
    keys: options.keys,
    symbols: options.symbols ?? BINANCE_SYMBOLS,
    trades: [] as BinanceTrade[],
    income: [] as BinanceIncome[],
    balances: [] as Array<{ account: string; asset: string; balance: string }>,
    positions: [] as Array<{ account: string; symbol: string; positionAmt: string; positionSide: 'BOTH' | 'LONG' | 'SHORT' }>,
    klines: new Map<string, BinanceKline[]>(),
    clockOffsetMs: options.clockOffsetMs ?? 0,
    weightPerMinute: options.weightPerMinute ?? 2400,
  };
  const banSeconds = options.banSeconds ?? 120;
  const calls: BinanceCall[] = [];
  const scripts = new Map<string, Scripted[]>();
  const usage = new Map<string, { minute: number; used: number; limited: boolean }>();
  const bans = new Map<string, number>();
  const sockets = new Set<Socket>();
  const now = () => Date.now() + state.clockOffsetMs;

  const error = (status: number, code: number, msg: string) => ({ status, json: { code, msg } });

  function handle(
    path: string,
    params: URLSearchParams,
    rawQuery: string,
    headers: http.IncomingHttpHeaders,
    ip: string,
  ): { status: number; json: unknown } {
    if (path === '/fapi/v1/time') return { status: 200, json: { serverTime: now() } };
    if (path === '/fapi/v1/exchangeInfo') return { status: 200, json: { timezone: 'UTC', serverTime: now(), symbols: state.symbols } };
    if (path === '/fapi/v1/klines') return klines(params);
    if (!SIGNED.has(path)) return error(404, -1000, 'Not found');

    // Signed: the key, the IP, the signature, then the time.
    const key = state.keys.find((k) => k.apiKey === headers['x-mbx-apikey']);
    if (!key) return error(401, -2015, `Invalid API-key, IP, or permissions for action, request ip: ${ip}`);
    if (key.trustedIps && !key.trustedIps.includes(ip)) return error(401, -2015, `Invalid API-key, IP, or permissions for action, request ip: ${ip}`);
    const at = rawQuery.lastIndexOf('signature=');
    const signature = params.get('signature');
    if (signature === null || at < 0) return error(400, -1102, "Mandatory parameter 'signature' was not sent, was empty/null, or malformed.");
    const signed = rawQuery.slice(0, at).replace(/&$/, '');
    const expected = crypto.createHmac('sha256', key.apiSecret).update(signed).digest('hex');
    if (signature.length !== expected.length || !crypto.timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) {
      return error(400, -1022, 'Signature for this request is not valid.');
    }
    const timestamp = Number(params.get('timestamp'));
    const recvWindow = Number(params.get('recvWindow') ?? 5000);
    if (!Number.isFinite(timestamp)) return error(400, -1102, "Mandatory parameter 'timestamp' was not sent, was empty/null, or malformed.");
    if (!(recvWindow > 0 && recvWindow <= 60_000)) return error(400, -1131, 'recvWindow must be less than 60000');
    const serverTime = now();
    if (timestamp >= serverTime + 1000) return error(400, -1021, "Timestamp for this request was 1000ms ahead of the server's time.");
    if (serverTime - timestamp > recvWindow) return error(400, -1021, 'Timestamp for this request is outside of the recvWindow.');

    const mine = <T extends { account: string }>(rows: T[]) => rows.filter((r) => r.account === key.account);
    switch (path) {
      case '/sapi/v1/account/apiRestrictions':
        return {
          status: 200,
          json: {
            ipRestrict: key.trustedIps !== undefined,
            createTime: 1_700_000_000_000,
            enableReading: true,
            enableWithdrawals: false,
            enableInternalTransfer: false,
            permitsUniversalTransfer: false,
            enableVanillaOptions: false,
            enableFutures: false,
            enableMargin: false,
            enableSpotAndMarginTrading: false,
            tradingAuthorityExpirationTime: 0,
            ...key.restrictions,
          },
        };
      case '/fapi/v2/balance':
        return {
          status: 200,
          json: mine(state.balances).map((b) => ({
            accountAlias: 'SgsR',
            asset: b.asset,
            balance: b.balance,
            crossWalletBalance: b.balance,
            availableBalance: b.balance,
            updateTime: serverTime,
          })),
        };
      case '/fapi/v3/positionRisk':
        return {
          status: 200,
          json: mine(state.positions).map((p) => ({ symbol: p.symbol, positionSide: p.positionSide, positionAmt: p.positionAmt })),
        };
      case '/fapi/v1/income': {
        const limit = Number(params.get('limit') ?? 100);
        if (!(limit >= 1 && limit <= 1000)) return error(400, -1130, 'Invalid data sent for a parameter.');
        const start = params.has('startTime') ? Number(params.get('startTime')) : null;
        const end = params.has('endTime') ? Number(params.get('endTime')) : null;
        const from = start ?? (end === null ? serverTime - 7 * DAY : 0);
        const to = end ?? serverTime;
        const kept = serverTime - 90 * DAY;
        const rows = mine(state.income)
          .filter((r) => r.time >= Math.max(from, kept) && r.time <= to)
          .filter((r) => !params.has('incomeType') || r.incomeType === params.get('incomeType'))
          .filter((r) => !params.has('symbol') || r.symbol === params.get('symbol'))
          .sort((a, b) => a.time - b.time || a.tranId - b.tranId)
          .slice(0, limit)
          .map(({ account: _, ...row }) => row);
        return { status: 200, json: rows };
      }
      case '/fapi/v1/userTrades': {
        const symbol = params.get('symbol');
        if (!symbol) return error(400, -1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed.");
        if (!state.symbols.some((s) => s.symbol === symbol)) return error(400, -1121, 'Invalid symbol.');
        const limit = Number(params.get('limit') ?? 500);
        if (!(limit >= 1 && limit <= 1000)) return error(400, -1130, 'Invalid data sent for a parameter.');
        const hasTimes = params.has('startTime') || params.has('endTime');
        if (params.has('fromId') && hasTimes) return error(400, -1128, 'Combination of optional parameters invalid.');
        let rows = mine(state.trades).filter((t) => t.symbol === symbol && t.time >= serverTime - 180 * DAY);
        if (params.has('fromId')) {
          rows = rows.filter((t) => t.id >= Number(params.get('fromId')));
        } else {
          const start = params.has('startTime') ? Number(params.get('startTime')) : null;
          const end = params.has('endTime') ? Number(params.get('endTime')) : null;
          const from = start ?? (end !== null ? end - 7 * DAY : serverTime - 7 * DAY);
          const to = end ?? (start !== null ? start + 7 * DAY : serverTime);
          if (to - from > 7 * DAY) return error(400, -1127, 'Lookup interval is too big.');
          rows = rows.filter((t) => t.time >= from && t.time <= to);
        }
        return {
          status: 200,
          json: rows
            .sort((a, b) => a.id - b.id)
            .slice(0, limit)
            .map(({ account: _, ...row }) => row),
        };
      }
      default:
        return error(404, -1000, 'Not found');
    }
  }

  function klines(params: URLSearchParams): { status: number; json: unknown } {
    const symbol = params.get('symbol');
    if (!symbol) return error(400, -1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed.");
    if (!state.symbols.some((s) => s.symbol === symbol)) return error(400, -1121, 'Invalid symbol.');
    if (params.get('interval') !== '1m') return error(400, -1120, 'Invalid interval.');
    const limit = Number(params.get('limit') ?? 500);
    if (!(limit >= 1 && limit <= 1500)) return error(400, -1130, 'Invalid data sent for a parameter.');
    const from = Number(params.get('startTime') ?? 0);
    const to = Number(params.get('endTime') ?? now());
    const rows = (state.klines.get(symbol) ?? [])
      .filter(([t]) => t >= from && t <= to)
      .sort(([a], [b]) => a - b)
      .slice(0, limit)
      .map(([t, o, h, l, c, v]) => [t, o, h, l, c, v, t + 59_999, '0', 1, '0', '0', '0']);
    return { status: 200, json: rows };
  }

  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const path = url.pathname;
      const rawQuery = (req.url ?? '').split('?')[1] ?? '';
      const params = url.searchParams;
      const ip = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
      const record = (status: number, json: unknown) => {
        const shown = Object.fromEntries([...params].filter(([k]) => k !== 'signature'));
        const code = json && typeof json === 'object' && 'code' in json ? Number((json as { code: unknown }).code) : null;
        calls.push({ path, status, code, params: shown, ip, at: Date.now() });
      };
      const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        record(status, json);
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(json === undefined ? '' : JSON.stringify(json));
      };
      if (req.method !== 'GET') return send(405, { code: -1000, msg: 'Method not allowed' });

      // The IP's weight this minute, and its ban.
      const banned = bans.get(ip);
      if (banned !== undefined && banned > Date.now()) {
        return send(
          418,
          { code: -1003, msg: `Way too much request weight used; IP banned until ${banned}.` },
          { 'retry-after': String(Math.ceil((banned - Date.now()) / 1000)) },
        );
      }
      const minute = Math.floor(Date.now() / 60_000);
      let spent = usage.get(ip);
      if (!spent || spent.minute !== minute) usage.set(ip, (spent = { minute, used: 0, limited: false }));
      const weight = weightOf(path, params);
      if (spent.used + weight > state.weightPerMinute) {
        if (spent.limited) {
          bans.set(ip, Date.now() + banSeconds * 1000);
          return send(418, { code: -1003, msg: 'Way too much request weight used; IP banned.' }, { 'retry-after': String(banSeconds) });
        }
        spent.limited = true;
        const wait = Math.max(1, Math.ceil(((minute + 1) * 60_000 - Date.now()) / 1000));
        return send(
          429,
          { code: -1003, msg: `Too much request weight used; current limit is ${state.weightPerMinute} request weight per 1 MINUTE.` },
          { 'retry-after': String(wait) },
        );
      }
      spent.used += weight;
      const weightHeader = { 'x-mbx-used-weight-1m': String(spent.used) };

      const scripted = scripts.get(path)?.shift();
      if (scripted?.kind === 'status') {
        return send(scripted.status, scripted.body ?? { code: scripted.status === 429 ? -1003 : -1000, msg: 'scripted' }, {
          ...weightHeader,
          ...(scripted.retryAfter !== undefined && { 'retry-after': String(scripted.retryAfter) }),
        });
      }
      const reply = () => {
        const answer = handle(path, params, rawQuery, req.headers, ip);
        send(answer.status, answer.json, weightHeader);
      };
      if (scripted?.kind === 'delay') setTimeout(reply, scripted.ms);
      else reply();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const push = (path: string, item: Scripted, times: number) => {
    const queue = scripts.get(path) ?? [];
    for (let i = 0; i < times; i++) queue.push(item);
    scripts.set(path, queue);
  };

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    get keys() {
      return state.keys;
    },
    get symbols() {
      return state.symbols;
    },
    get trades() {
      return state.trades;
    },
    get income() {
      return state.income;
    },
    get balances() {
      return state.balances;
    },
    get positions() {
      return state.positions;
    },
    get klines() {
      return state.klines;
    },
    get clockOffsetMs() {
      return state.clockOffsetMs;
    },
    set clockOffsetMs(value: number) {
      state.clockOffsetMs = value;
    },
    get weightPerMinute() {
      return state.weightPerMinute;
    },
    set weightPerMinute(value: number) {
      state.weightPerMinute = value;
    },
    fail: (path, status, times = 1, retryAfter, body) => push(path, { kind: 'status', status, retryAfter, body }, times),
    delay: (path, ms, times = 1) => push(path, { kind: 'delay', ms }, times),
    count: (path, status = 200) => calls.filter((c) => c.path === path && c.status === status).length,
    now,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  } as BinanceStandIn;
}

let nextTradeId = 400_000_000;
let nextOrderId = 8_000_000_000;
let nextTranId = 90_000_000;

/**
 * One round trip of a Binance account as Binance records it: the fills (userTrades), each with its commission
 * (0.04% of notional, taker, in the symbol's margin asset unless `feeAsset` says BNB) and realized P&L on the closing
 * ones, and the income rows those fills write (COMMISSION for every fill, REALIZED_PNL for every close).
 */
export function binanceRoundTrip(
  account: string,
  symbol: string,
  trip: {
    side: 'Long' | 'Short';
    entries: Array<[qty: string, price: string, time: number]>;
    exits: Array<[qty: string, price: string, time: number]>;
    positionSide?: 'BOTH' | 'LONG' | 'SHORT';
    feeAsset?: string;
    margin?: string;
  },
): { trades: BinanceTrade[]; income: BinanceIncome[] } {
  const margin = trip.margin ?? (symbol.endsWith('USDC') ? 'USDC' : 'USDT');
  const open = trip.side === 'Long' ? 'BUY' : 'SELL';
  const close = trip.side === 'Long' ? 'SELL' : 'BUY';
  const positionSide = trip.positionSide ?? 'BOTH';
  const totalQty = trip.entries.reduce((sum, [q]) => sum + Number(q), 0);
  const average = trip.entries.reduce((sum, [q, p]) => sum + Number(q) * Number(p), 0) / totalQty;
  const trades: BinanceTrade[] = [];
  const income: BinanceIncome[] = [];
  const add = (side: 'BUY' | 'SELL', [qty, price, time]: [string, string, number], realized: string) => {
    const notional = Number(qty) * Number(price);
    const fee = trip.feeAsset === 'BNB' ? ((notional * 0.0003) / 600).toFixed(8) : (notional * 0.0004).toFixed(8);
    const id = nextTradeId++;
    trades.push({
      account,
      symbol,
      id,
      orderId: nextOrderId++,
      side,
      price,
      qty,
      quoteQty: notional.toFixed(8),
      realizedPnl: realized,
      commission: fee,
      commissionAsset: trip.feeAsset ?? margin,
      positionSide,
      buyer: side === 'BUY',
      maker: false,
      time,
    });
    income.push({
      account,
      symbol,
      incomeType: 'COMMISSION',
      income: `-${fee}`,
      asset: trip.feeAsset ?? margin,
      info: 'COMMISSION',
      time,
      tranId: nextTranId++,
      tradeId: String(id),
    });
    if (realized !== '0')
      income.push({
        account,
        symbol,
        incomeType: 'REALIZED_PNL',
        income: realized,
        asset: margin,
        info: 'REALIZED_PNL',
        time,
        tranId: nextTranId++,
        tradeId: String(id),
      });
  };
  for (const entry of trip.entries) add(open, entry, '0');
  for (const exit of trip.exits) {
    const points = trip.side === 'Long' ? Number(exit[1]) - average : average - Number(exit[1]);
    add(close, exit, (points * Number(exit[0])).toFixed(8));
  }
  return { trades, income };
}

/** A funding payment as Binance's income history writes it. */
export function binanceFunding(account: string, symbol: string, income: string, time: number, asset = 'USDT'): BinanceIncome {
  return { account, symbol, incomeType: 'FUNDING_FEE', income, asset, info: 'FUNDING_FEE', time, tranId: nextTranId++, tradeId: '' };
}

/** One-minute klines at a flat price around `price`, from `from` for `minutes`. */
export function binanceKlines(from: number, minutes: number, price: number): BinanceKline[] {
  const start = Math.floor(from / 60_000) * 60_000;
  return Array.from(
    { length: minutes },
    (_, i) => [start + i * 60_000, String(price), String(price + 20), String(price - 20), String(price + 5), '12.5'] as BinanceKline,
  );
}
