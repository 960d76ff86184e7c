import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A stand-in for Bybit's v5 API (linear contracts), written from Bybit's public API documentation, over real HTTP:
 *
 * - Signed endpoints take X-BAPI-API-KEY, X-BAPI-TIMESTAMP, X-BAPI-RECV-WINDOW (5,000 by default) and X-BAPI-SIGN: hex
 *   HMAC-SHA256 under the secret of timestamp + key + recvWindow + query string. The timestamp must lie in
 *   [server time - recvWindow, server time + 1,000) (else retCode 10002). An unknown key is 10003, a wrong signature
 *   10004, a key used from an IP it does not trust 10010. Errors are HTTP 200 with a retCode, as Bybit answers them.
 * - Per key and endpoint, `perSecond` requests a second (GET /v5/execution/list: 50); every answer carries
 *   X-Bapi-Limit, X-Bapi-Limit-Status (what remains) and X-Bapi-Limit-Reset-Timestamp; past it, retCode 10006.
 * - GET /v5/market/time, /v5/market/instruments-info, /v5/market/kline (newest first, limit at most 1,000) are public.
 *   GET /v5/user/query-api (readOnly, permissions), /v5/account/wallet-balance, /v5/execution/list and
 *   /v5/position/closed-pnl are signed: the last two take at most 7 days between startTime and endTime (startTime
 *   alone: 7 days from it; neither: the last 7 days), at most 100 a page (50 by default), newest first, a
 *   nextPageCursor while more remain, and keep two years.
 *
 * Scriptable like the other stand-ins; every call is recorded.
 */

export interface BybitKey {
  apiKey: string;
  apiSecret: string;
  uid: string;
  readOnly?: 0 | 1;
  /** Wallet permissions beyond none (Withdraw, AccountTransfer). */
  wallet?: string[];
  trustedIps?: string[];
}

export interface BybitInstrument {
  symbol: string;
  contractType: 'LinearPerpetual' | 'LinearFutures';
  status: 'Trading';
  baseCoin: string;
  quoteCoin: string;
  settleCoin: string;
  lotSizeFilter: { qtyStep: string };
  priceFilter: { tickSize: string };
}

export interface BybitExecution {
  uid: string;
  symbol: string;
  orderId: string;
  side: 'Buy' | 'Sell';
  orderPrice: string;
  orderQty: string;
  execFee: string;
  execId: string;
  execPrice: string;
  execQty: string;
  execType: 'Trade' | 'Funding' | 'BustTrade' | 'AdlTrade';
  execValue: string;
  execTime: string;
  feeCurrency: string;
  isMaker: boolean;
  closedSize: string;
  seq: number;
  settleCoin: string;
}

export interface BybitClosedPnl {
  uid: string;
  symbol: string;
  orderId: string;
  side: 'Buy' | 'Sell';
  qty: string;
  closedSize: string;
  avgEntryPrice: string;
  avgExitPrice: string;
  closedPnl: string;
  createdTime: string;
  updatedTime: string;
}

export interface BybitCall {
  path: string;
  status: number;
  retCode: number | null;
  params: Record<string, string>;
  at: number;
}

const DAY = 86_400_000;
const SIGNED = new Set(['/v5/user/query-api', '/v5/account/wallet-balance', '/v5/execution/list', '/v5/position/closed-pnl']);

export const BYBIT_INSTRUMENTS: BybitInstrument[] = [
  linear('BTC', 'USDT', '0.001'),
  linear('ETH', 'USDT', '0.01'),
  linear('SOL', 'USDT', '0.1'),
  linear('BTC', 'USDC', '0.001', 'BTCPERP'),
];

function linear(base: string, settle: string, qtyStep: string, symbol = `${base}${settle}`): BybitInstrument {
  return {
    symbol,
    contractType: 'LinearPerpetual',
    status: 'Trading',
    baseCoin: base,
    quoteCoin: settle,
    settleCoin: settle,
    lotSizeFilter: { qtyStep },
    priceFilter: { tickSize: '0.01' },
  };
}

type Scripted = { kind: 'status'; status: number } | { kind: 'retCode'; retCode: number; retMsg: string } | { kind: 'delay'; ms: number };

export interface BybitStandIn {
  url: string;
  calls: BybitCall[];
  keys: BybitKey[];
  instruments: BybitInstrument[];
  executions: BybitExecution[];
  closedPnl: BybitClosedPnl[];
  wallets: Array<{ uid: string; coin: string; walletBalance: string }>;
  klines: Map<string, Array<[number, string, string, string, string, string]>>;
  clockOffsetMs: number;
  perSecond: number;
  fail(path: string, status: number, times?: number): void;
  refuse(path: string, retCode: number, retMsg: string, times?: number): void;
  count(path: string, retCode?: number): number;
  now(): number;
  close(): Promise<void>;
}

export async function startBybitServer(options: { keys: BybitKey[]; clockOffsetMs?: number; perSecond?: number }): Promise<BybitStandIn> {
  const state = {
    keys: options.keys,
    instruments: BYBIT_INSTRUMENTS,
    executions: [] as BybitExecution[],
    closedPnl: [] as BybitClosedPnl[],
    wallets: [] as Array<{ uid: string; coin: string; walletBalance: string }>,
    klines: new Map<string, Array<[number, string, string, string, string, string]>>(),
    clockOffsetMs: options.clockOffsetMs ?? 0,
    perSecond: options.perSecond ?? 50,
  };
  const calls: BybitCall[] = [];
  const scripts = new Map<string, Scripted[]>();
  const windows = new Map<string, number[]>();
  const sockets = new Set<Socket>();
  const now = () => Date.now() + state.clockOffsetMs;
  const ok = (result: unknown) => ({ retCode: 0, retMsg: 'OK', result, retExtInfo: {}, time: now() });
  const refused = (retCode: number, retMsg: string) => ({ retCode, retMsg, result: {}, retExtInfo: {}, time: now() });

  /** A window of a list: at most 7 days, as the documentation's rules read startTime and endTime. */
  function windowOf(params: URLSearchParams): { from: number; to: number } | null {
    const start = params.has('startTime') ? Number(params.get('startTime')) : null;
    const end = params.has('endTime') ? Number(params.get('endTime')) : null;
    if (start !== null && end !== null) return end - start > 7 * DAY || end < start ? null : { from: start, to: end };
    if (start !== null) return { from: start, to: start + 7 * DAY };
    if (end !== null) return { from: end - 7 * DAY, to: end };
    return { from: now() - 7 * DAY, to: now() };
  }

  /** Newest first, a page at a time; the cursor is the offset, opaque to the client. */
  function page<T>(rows: T[], params: URLSearchParams): { list: T[]; nextPageCursor: string } | null {
    const limit = Number(params.get('limit') ?? 50);
    if (!(limit >= 1 && limit <= 100)) return null;
    const offset = params.get('cursor') ? Number(Buffer.from(params.get('cursor')!, 'base64url').toString()) : 0;
    const list = rows.slice(offset, offset + limit);
    const more = offset + limit < rows.length;
    return { list, nextPageCursor: more ? Buffer.from(String(offset + limit)).toString('base64url') : '' };
  }

  function handle(
    path: string,
    params: URLSearchParams,
    query: string,
    headers: http.IncomingHttpHeaders,
    ip: string,
  ): { json: unknown; limit?: { limit: number; remaining: number; reset: number } } {
    if (path === '/v5/market/time') {
      const ms = now();
      return { json: ok({ timeSecond: String(Math.floor(ms / 1000)), timeNano: `${ms}000000` }) };
    }
    if (path === '/v5/market/instruments-info') {
      if (params.get('category') !== 'linear') return { json: ok({ category: params.get('category'), list: [], nextPageCursor: '' }) };
      return { json: ok({ category: 'linear', list: state.instruments, nextPageCursor: '' }) };
    }
    if (path === '/v5/market/kline') {
      const limit = Number(params.get('limit') ?? 200);
      if (!(limit >= 1 && limit <= 1000) || params.get('interval') !== '1') return { json: refused(10001, 'params error') };
      const from = Number(params.get('start') ?? 0);
      const to = Number(params.get('end') ?? now());
      const list = (state.klines.get(params.get('symbol') ?? '') ?? [])
        .filter(([t]) => t >= from && t <= to)
        .sort(([a], [b]) => b - a)
        .slice(0, limit)
        .map(([t, o, h, l, c, v]) => [String(t), o, h, l, c, v, '0']);
      return { json: ok({ category: 'linear', symbol: params.get('symbol'), list }) };
    }
    if (!SIGNED.has(path)) return { json: refused(10001, 'unknown path') };

    const key = state.keys.find((k) => k.apiKey === headers['x-bapi-api-key']);
    if (!key) return { json: refused(10003, 'API key is invalid.') };
    if (key.trustedIps && !key.trustedIps.includes(ip))
      return { json: refused(10010, "Unmatched IP, please check your API key's bound IP addresses.") };
    const timestamp = String(headers['x-bapi-timestamp'] ?? '');
    const recvWindow = String(headers['x-bapi-recv-window'] ?? '5000');
    const expected = crypto
      .createHmac('sha256', key.apiSecret)
      .update(timestamp + key.apiKey + recvWindow + query)
      .digest('hex');
    const given = String(headers['x-bapi-sign'] ?? '');
    if (given.length !== expected.length || !crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected))) {
      return { json: refused(10004, 'error sign! origin_string[...]') };
    }
    const serverTime = now();
    if (!(Number(timestamp) >= serverTime - Number(recvWindow) && Number(timestamp) < serverTime + 1000)) {
      return {
        json: refused(
          10002,
          `invalid request, please check your server timestamp or recv_window param. req_timestamp[${timestamp}],server_timestamp[${serverTime}],recv_window[${recvWindow}]`,
        ),
      };
    }
    // The key's requests of this endpoint in the last second (counted on this machine's steady clock; the reset is
    // told on the server's).
    const windowKey = `${key.apiKey}|${path}`;
    const real = Date.now();
    const recent = (windows.get(windowKey) ?? []).filter((t) => t > real - 1000);
    const reset = (recent[0] ?? real) + 1000 + state.clockOffsetMs;
    if (recent.length >= state.perSecond) {
      windows.set(windowKey, recent);
      return { json: refused(10006, 'Too many visits!'), limit: { limit: state.perSecond, remaining: 0, reset } };
    }
    recent.push(real);
    windows.set(windowKey, recent);
    const limit = {
      limit: state.perSecond,
      remaining: state.perSecond - recent.length,
      reset: recent.length >= state.perSecond ? reset : serverTime,
    };

    switch (path) {
      case '/v5/user/query-api':
        return {
          json: ok({
            id: '13770661',
            note: 'journal',
            apiKey: key.apiKey,
            readOnly: key.readOnly ?? 1,
            secret: '',
            permissions: {
              ContractTrade: key.readOnly === 0 ? ['Order', 'Position'] : [],
              Spot: [],
              Wallet: key.wallet ?? [],
              Options: [],
              Derivatives: [],
              Exchange: [],
              NFT: [],
            },
            ips: key.trustedIps ?? ['*'],
            type: 1,
            uta: 1,
            userID: Number(key.uid.replace(/\D/g, '') || 1),
          }),
          limit,
        };
      case '/v5/account/wallet-balance': {
        if (params.get('accountType') !== 'UNIFIED') return { json: refused(10001, 'accountType only support UNIFIED.'), limit };
        const coins = state.wallets
          .filter((w) => w.uid === key.uid)
          .map((w) => ({ coin: w.coin, walletBalance: w.walletBalance, equity: w.walletBalance }));
        return { json: ok({ list: [{ accountType: 'UNIFIED', coin: coins }] }), limit };
      }
      case '/v5/execution/list':
      case '/v5/position/closed-pnl': {
        if (params.get('category') !== 'linear') return { json: refused(10001, 'params error: category'), limit };
        const window = windowOf(params);
        if (!window) return { json: refused(10001, 'params error: The time range between startTime and endTime cannot exceed 7 days.'), limit };
        const kept = serverTime - 730 * DAY;
        const symbol = params.get('symbol');
        if (path === '/v5/execution/list') {
          const settle = params.get('settleCoin');
          const rows = state.executions
            .filter((e) => e.uid === key.uid && (!symbol || e.symbol === symbol) && (!settle || e.settleCoin === settle))
            .filter((e) => Number(e.execTime) >= Math.max(window.from, kept) && Number(e.execTime) <= window.to)
            .sort((a, b) => Number(b.execTime) - Number(a.execTime) || b.seq - a.seq)
            .map(({ uid: _, settleCoin: __, ...e }) => ({
              ...e,
              orderLinkId: '',
              leavesQty: '0',
              orderType: e.execType === 'Funding' ? 'UNKNOWN' : 'Market',
              stopOrderType: '',
              feeRate: '0.00055',
              markPrice: e.execPrice,
              indexPrice: '',
              underlyingPrice: '',
              blockTradeId: '',
              tradeIv: '',
              markIv: '',
              extraFees: '',
            }));
          const paged = page(rows, params);
          return { json: paged ? ok({ category: 'linear', ...paged }) : refused(10001, 'params error: limit'), limit };
        }
        const rows = state.closedPnl
          .filter((c) => c.uid === key.uid && (!symbol || c.symbol === symbol))
          .filter((c) => Number(c.updatedTime) >= Math.max(window.from, kept) && Number(c.updatedTime) <= window.to)
          .sort((a, b) => Number(b.updatedTime) - Number(a.updatedTime))
          .map(({ uid: _, ...c }) => c);
        const paged = page(rows, params);
        return { json: paged ? ok({ category: 'linear', ...paged }) : refused(10001, 'params error: limit'), limit };
      }
      default:
        return { json: refused(10001, 'unknown path') };
    }
  }

  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const path = url.pathname;
      const query = (req.url ?? '').split('?')[1] ?? '';
      const ip = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
      const send = (status: number, json: unknown, extra: Record<string, string> = {}) => {
        const retCode = json && typeof json === 'object' && 'retCode' in json ? Number((json as { retCode: unknown }).retCode) : null;
        calls.push({ path, status, retCode, params: Object.fromEntries(url.searchParams), at: Date.now() });
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json', ...extra });
        res.end(JSON.stringify(json));
      };
      const scripted = scripts.get(path)?.shift();
      if (scripted?.kind === 'status')
        return send(scripted.status, { retCode: scripted.status, retMsg: scripted.status === 403 ? 'access too frequent' : 'scripted' });
      if (scripted?.kind === 'retCode') return send(200, refused(scripted.retCode, scripted.retMsg));
      const reply = () => {
        const answer = handle(path, url.searchParams, query, req.headers, ip);
        const headers: Record<string, string> = answer.limit
          ? {
              'x-bapi-limit': String(answer.limit.limit),
              'x-bapi-limit-status': String(answer.limit.remaining),
              'x-bapi-limit-reset-timestamp': String(answer.limit.reset),
            }
          : {};
        send(200, answer.json, headers);
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
  const standIn = {
    url: `http://127.0.0.1:${port}`,
    calls,
    fail: (path: string, status: number, times = 1) => push(path, { kind: 'status', status }, times),
    refuse: (path: string, retCode: number, retMsg: string, times = 1) => push(path, { kind: 'retCode', retCode, retMsg }, times),
    count: (path: string, retCode = 0) => calls.filter((c) => c.path === path && c.retCode === retCode).length,
    now,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  for (const name of ['keys', 'instruments', 'executions', 'closedPnl', 'wallets', 'klines', 'clockOffsetMs', 'perSecond'] as const) {
    Object.defineProperty(standIn, name, {
      get: () => state[name],
      set: (value) => ((state as Record<string, unknown>)[name] = value),
      enumerable: true,
    });
  }
  return standIn as unknown as BybitStandIn;
}

let nextSeq = 140_000_000;
let nextOrder = 1;

/**
 * One round trip of a Bybit account as Bybit records it: the executions (taker fee 0.055% of value, in the settle coin),
 * each with the size it closed, and a closed-P&L record per closing order (net of the fees of what it closed).
 */
export function bybitRoundTrip(
  uid: string,
  symbol: string,
  trip: {
    side: 'Long' | 'Short';
    entries: Array<[qty: string, price: string, time: number]>;
    exits: Array<[qty: string, price: string, time: number]>;
    settle?: string;
  },
): { executions: BybitExecution[]; closedPnl: BybitClosedPnl[] } {
  const settle = trip.settle ?? (symbol.endsWith('PERP') ? 'USDC' : 'USDT');
  const open = trip.side === 'Long' ? 'Buy' : 'Sell';
  const close = trip.side === 'Long' ? 'Sell' : 'Buy';
  const totalQty = trip.entries.reduce((sum, [q]) => sum + Number(q), 0);
  const average = trip.entries.reduce((sum, [q, p]) => sum + Number(q) * Number(p), 0) / totalQty;
  const executions: BybitExecution[] = [];
  const closedPnl: BybitClosedPnl[] = [];
  const execution = (side: 'Buy' | 'Sell', [qty, price, time]: [string, string, number], closedSize: string): BybitExecution => {
    const value = Number(qty) * Number(price);
    const orderId = `order-${nextOrder++}`;
    return {
      uid,
      symbol,
      orderId,
      side,
      orderPrice: price,
      orderQty: qty,
      execFee: (value * 0.00055).toFixed(8),
      execId: crypto.randomUUID(),
      execPrice: price,
      execQty: qty,
      execType: 'Trade',
      execValue: value.toFixed(8),
      execTime: String(time),
      feeCurrency: settle,
      isMaker: false,
      closedSize,
      seq: nextSeq++,
      settleCoin: settle,
    };
  };
  for (const entry of trip.entries) executions.push(execution(open, entry, '0'));
  for (const exit of trip.exits) {
    const e = execution(close, exit, exit[0]);
    executions.push(e);
    const points = trip.side === 'Long' ? Number(exit[1]) - average : average - Number(exit[1]);
    const fees = Number(e.execFee) + Number(exit[0]) * average * 0.00055;
    closedPnl.push({
      uid,
      symbol,
      orderId: e.orderId,
      side: close,
      qty: exit[0],
      closedSize: exit[0],
      avgEntryPrice: String(average),
      avgExitPrice: exit[1],
      closedPnl: (points * Number(exit[0]) - fees).toFixed(8),
      createdTime: String(exit[2]),
      updatedTime: String(exit[2]),
    });
  }
  return { executions, closedPnl };
}

/** A funding execution: the position's side, and what it paid as its fee (negative: it received). */
export function bybitFunding(uid: string, symbol: string, side: 'Buy' | 'Sell', paid: string, time: number, settle = 'USDT'): BybitExecution {
  return {
    uid,
    symbol,
    orderId: '',
    side,
    orderPrice: '0',
    orderQty: '0',
    execFee: paid,
    execId: crypto.randomUUID(),
    execPrice: '0',
    execQty: '0',
    execType: 'Funding',
    execValue: '0',
    execTime: String(time),
    feeCurrency: settle,
    isMaker: false,
    closedSize: '0',
    seq: nextSeq++,
    settleCoin: settle,
  };
}
