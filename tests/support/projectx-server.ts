import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the ProjectX Gateway API (TopstepX's), written from its public documentation
 * (gateway.docs.projectx.com) and the gateway's schema, over real HTTP:
 *
 * - POST /api/Auth/loginKey {userName, apiKey} -> {token, success, errorCode, errorMessage}; LoginErrorCode 3
 *   (InvalidCredentials) for a wrong or revoked key, 1 (UserNotFound) for an unknown user.
 * - POST /api/Auth/validate (Bearer token) -> {success, errorCode, errorMessage, newToken}: "session tokens are only
 *   valid for 24 hours. If your token has expired, you must re-validate it to receive a new token." Here the lifetime
 *   is `tokenLifetimeMs`; an expired token is refused (401) everywhere but here.
 * - POST /api/Account/search {onlyActiveAccounts} -> {accounts: [{id, name, balance, canTrade, isVisible, simulated}]}
 * - POST /api/Trade/search {accountId, startTimestamp, endTimestamp?} -> {trades: [{id, accountId, contractId,
 *   creationTimestamp, price, profitAndLoss (null on a half-turn), fees, side (0 Bid/buy, 1 Ask/sell), size, voided,
 *   orderId}]}, SearchTradeErrorCode 1 (AccountNotFound).
 * - POST /api/Contract/searchById {contractId} -> {contracts: [...]} as the documentation's example writes it (or
 *   {contract} as the gateway's schema does, `contractShape: 'contract'`), SearchContractByIdErrorCode 1.
 * - POST /api/Contract/search {searchText, live} -> {contracts: [{id, name, description, tickSize, tickValue,
 *   activeContract}]}, the contracts whose name (ENQM25: the gateway's own symbols) holds the text
 * - POST /api/History/retrieveBars {contractId, live, startTime, endTime, unit, unitNumber, limit, includePartialBar}
 *   -> {bars: [{t, o, h, l, c, v}]} newest first, at most 20,000; RetrieveBarErrorCode 1-4.
 * - POST /api/Order/search {accountId, startTimestamp, endTimestamp?} -> {orders: [{id, accountId, contractId, symbolId,
 *   creationTimestamp, updateTimestamp, status, type, side, size, limitPrice, stopPrice, fillVolume, filledPrice,
 *   customTag}]}, the orders placed in the window; OrderType 1 Limit, 2 Market, 3 StopLimit, 4 Stop, 5 TrailingStop;
 *   OrderStatus 1 Open, 2 Filled, 3 Cancelled, 4 Expired, 5 Rejected, 6 Pending.
 * - POST /api/Position/searchOpen {accountId} -> {positions: [{id, accountId, contractId, creationTimestamp, type
 *   (1 Long, 2 Short), size, averagePrice}]}.
 * - Rate limits ("Rate Limits"): 30 requests / 30 s for retrieveBars, 200 / 60 s for the rest, per token; HTTP 429
 *   past them, with no Retry-After (the documentation promises none; `rateLimitRetryAfter` adds one).
 *
 * Scriptable: the next answers of an endpoint can be an HTTP status (429 with a Retry-After, 5xx), a delay (a slow
 * gateway), tokens can be expired and keys revoked. Every call is recorded.
 */

export interface StandInAccount {
  id: number;
  name: string;
  balance: number;
  canTrade: boolean;
  isVisible: boolean;
  simulated: boolean;
  /** Listed when onlyActiveAccounts is true. */
  active: boolean;
  /** The user it belongs to. */
  userName: string;
}

export interface StandInTrade {
  id: number;
  accountId: number;
  contractId: string;
  creationTimestamp: string;
  price: number;
  profitAndLoss: number | null;
  fees: number;
  side: 0 | 1;
  size: number;
  voided: boolean;
  orderId: number;
}

export interface StandInOrder {
  id: number;
  accountId: number;
  contractId: string;
  creationTimestamp: string;
  updateTimestamp: string | null;
  status: number;
  type: number;
  side: 0 | 1;
  size: number;
  limitPrice: number | null;
  stopPrice: number | null;
  fillVolume: number;
  filledPrice: number | null;
  customTag: string | null;
}

export interface StandInPosition {
  id: number;
  accountId: number;
  contractId: string;
  creationTimestamp: string;
  type: 1 | 2;
  size: number;
  averagePrice: number;
}

export interface StandInContract {
  id: string;
  name: string;
  description: string;
  tickSize: number;
  tickValue: number;
  activeContract: boolean;
}

export interface StandInBar {
  t: string;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

export interface Call {
  endpoint: string;
  at: number;
  status: number;
  body: Record<string, unknown>;
  token: string | null;
}

type Scripted = { kind: 'status'; status: number; retryAfter?: number } | { kind: 'delay'; ms: number } | { kind: 'pass' };

export interface ProjectXStandIn {
  url: string;
  calls: Call[];
  accounts: StandInAccount[];
  trades: StandInTrade[];
  orders: StandInOrder[];
  positions: StandInPosition[];
  contracts: StandInContract[];
  bars: Map<string, StandInBar[]>;
  /**
   * After `after` calls answered as usual, the next `times` calls of `endpoint` answer `status` (429 with Retry-After
   * `retryAfter` seconds).
   */
  fail(endpoint: string, status: number, times?: number, retryAfter?: number, after?: number): void;
  /** The next `times` calls of `endpoint` wait `ms` before answering. */
  delay(endpoint: string, ms: number, times?: number): void;
  /** Every token issued so far is expired now. */
  expireTokens(): void;
  /** The user's key no longer signs in, and the tokens it gave are refused. */
  revokeKey(userName: string): void;
  setKey(userName: string, apiKey: string): void;
  /** How many calls of an endpoint were answered with `status` (200 by default). */
  count(endpoint: string, status?: number): number;
  close(): Promise<void>;
}

export interface StandInOptions {
  /** `refuse`: a LoginErrorCode this user's sign-in always answers (9 ApiSubscriptionNotFound, 10 ApiKeyAuthenticationDisabled). */
  users: Array<{ userName: string; apiKey: string; refuse?: number }>;
  accounts?: StandInAccount[];
  trades?: StandInTrade[];
  orders?: StandInOrder[];
  positions?: StandInPosition[];
  contracts?: StandInContract[];
  bars?: Map<string, StandInBar[]>;
  tokenLifetimeMs?: number;
  /** Seconds of a Retry-After on the 429s of the rate limits; none by default, as the documentation gives none. */
  rateLimitRetryAfter?: number;
  contractShape?: 'contracts' | 'contract';
  /** Per-token limits; the documentation's by default. */
  rateLimits?: { bars: { limit: number; windowMs: number }; other: { limit: number; windowMs: number } };
}

/**
 * Contracts as the gateway names them: ids CON.F.US.<symbol>.<month><yy>, names <symbol><month><yy> with the
 * gateway's own symbol (the documentation's "Search for Contracts" answers ENQH25 and MNQH25; its E-mini S&P 500 is
 * EP), not the exchange's names that TopstepX's CSV exports print (NQH5).
 */
export const STAND_IN_CONTRACTS: StandInContract[] = [
  { id: 'CON.F.US.MNQ.M25', name: 'MNQM25', description: 'Micro E-mini Nasdaq-100: June 2025', tickSize: 0.25, tickValue: 0.5, activeContract: true },
  { id: 'CON.F.US.MES.M25', name: 'MESM25', description: 'Micro E-mini S&P 500: June 2025', tickSize: 0.25, tickValue: 1.25, activeContract: true },
  { id: 'CON.F.US.ENQ.M25', name: 'ENQM25', description: 'E-mini NASDAQ-100: June 2025', tickSize: 0.25, tickValue: 5, activeContract: true },
  { id: 'CON.F.US.MGC.M25', name: 'MGCM25', description: 'Micro Gold: June 2025', tickSize: 0.1, tickValue: 1, activeContract: true },
  { id: 'CON.F.US.EP.M25', name: 'EPM25', description: 'E-mini S&P 500: June 2025', tickSize: 0.25, tickValue: 12.5, activeContract: true },
];

export async function startProjectXServer(options: StandInOptions): Promise<ProjectXStandIn> {
  const keys = new Map(options.users.map((u) => [u.userName, u.apiKey]));
  const refusals = new Map(options.users.filter((u) => u.refuse !== undefined).map((u) => [u.userName, u.refuse!]));
  const revoked = new Set<string>();
  const tokens = new Map<string, { userName: string; expiresAt: number; key: string }>();
  const lifetime = options.tokenLifetimeMs ?? 24 * 3600_000;
  const limits = options.rateLimits ?? { bars: { limit: 30, windowMs: 30_000 }, other: { limit: 200, windowMs: 60_000 } };
  const usage = new Map<string, number[]>();
  const scripts = new Map<string, Scripted[]>();
  const calls: Call[] = [];
  const sockets = new Set<import('node:net').Socket>();

  const state = {
    accounts: options.accounts ?? [],
    trades: options.trades ?? [],
    orders: options.orders ?? [],
    positions: options.positions ?? [],
    contracts: options.contracts ?? STAND_IN_CONTRACTS,
    bars: options.bars ?? new Map<string, StandInBar[]>(),
  };

  const issue = (userName: string) => {
    const token = crypto.randomBytes(24).toString('base64url');
    tokens.set(token, { userName, expiresAt: Date.now() + lifetime, key: keys.get(userName) ?? '' });
    return token;
  };
  const ok = (extra: Record<string, unknown>) => ({ ...extra, success: true, errorCode: 0, errorMessage: null });
  const refused = (errorCode: number, errorMessage: string, extra: Record<string, unknown> = {}) => ({
    ...extra,
    success: false,
    errorCode,
    errorMessage,
  });

  /** Within the gateway's limit for this token and endpoint, counting this call. */
  function withinLimit(token: string, endpoint: string): boolean {
    const rule = endpoint === 'History/retrieveBars' ? limits.bars : limits.other;
    const key = `${token}|${rule === limits.bars ? 'bars' : 'other'}`;
    const now = Date.now();
    const times = (usage.get(key) ?? []).filter((t) => t > now - rule.windowMs);
    if (times.length >= rule.limit) {
      usage.set(key, times);
      return false;
    }
    times.push(now);
    usage.set(key, times);
    return true;
  }

  function handle(endpoint: string, body: Record<string, unknown>, bearer: string | null): { status: number; json?: unknown; retryAfter?: number } {
    if (endpoint === 'Auth/loginKey') {
      const userName = String(body.userName ?? '');
      const apiKey = String(body.apiKey ?? '');
      if (!keys.has(userName)) return { status: 200, json: refused(1, 'User not found', { token: null }) };
      if (keys.get(userName) !== apiKey || revoked.has(userName)) return { status: 200, json: refused(3, 'Invalid credentials', { token: null }) };
      const refusal = refusals.get(userName);
      if (refusal !== undefined) return { status: 200, json: refused(refusal, 'Refused', { token: null }) };
      return { status: 200, json: ok({ token: issue(userName) }) };
    }
    const session = bearer ? tokens.get(bearer) : undefined;
    const live = session && !revoked.has(session.userName) && keys.get(session.userName) === session.key;
    if (endpoint === 'Auth/validate') {
      // An expired token is exchanged for a new one; a forged or revoked one is not.
      if (!live) return { status: 401 };
      return { status: 200, json: ok({ newToken: issue(session!.userName) }) };
    }
    if (!live || session!.expiresAt <= Date.now()) return { status: 401 };
    if (!withinLimit(bearer!, endpoint))
      return { status: 429, ...(options.rateLimitRetryAfter !== undefined && { retryAfter: options.rateLimitRetryAfter }) };
    const userName = session!.userName;
    const own = state.accounts.filter((a) => a.userName === userName);

    switch (endpoint) {
      case 'Account/search': {
        const accounts = (body.onlyActiveAccounts === true ? own.filter((a) => a.active) : own).map((a) => ({
          id: a.id,
          name: a.name,
          balance: a.balance,
          canTrade: a.canTrade,
          isVisible: a.isVisible,
          simulated: a.simulated,
        }));
        return { status: 200, json: ok({ accounts }) };
      }
      case 'Trade/search': {
        const accountId = Number(body.accountId);
        if (!own.some((a) => a.id === accountId)) return { status: 200, json: refused(1, 'Account not found', { trades: null }) };
        const start = Date.parse(String(body.startTimestamp ?? ''));
        if (!Number.isFinite(start)) return { status: 400, json: { title: 'startTimestamp is required' } };
        const end = body.endTimestamp ? Date.parse(String(body.endTimestamp)) : Date.now();
        const trades = state.trades
          .filter((t) => t.accountId === accountId)
          .filter((t) => {
            const at = Date.parse(t.creationTimestamp);
            return at >= start && at <= end;
          })
          .sort((a, b) => b.id - a.id);
        return { status: 200, json: ok({ trades }) };
      }
      case 'Order/search': {
        const accountId = Number(body.accountId);
        if (!own.some((a) => a.id === accountId)) return { status: 200, json: refused(1, 'Account not found', { orders: null }) };
        const start = Date.parse(String(body.startTimestamp ?? ''));
        if (!Number.isFinite(start)) return { status: 400, json: { title: 'startTimestamp is required' } };
        const end = body.endTimestamp ? Date.parse(String(body.endTimestamp)) : Date.now();
        const orders = state.orders
          .filter((o) => o.accountId === accountId)
          .filter((o) => {
            const at = Date.parse(o.creationTimestamp);
            return at >= start && at <= end;
          })
          .map((o) => ({ ...o, symbolId: o.contractId.replace(/^CON\./, '').replace(/\.[A-Z]\d{2}$/, '') }));
        return { status: 200, json: ok({ orders }) };
      }
      case 'Position/searchOpen': {
        const accountId = Number(body.accountId);
        if (!own.some((a) => a.id === accountId)) return { status: 200, json: refused(1, 'Account not found', { positions: null }) };
        return { status: 200, json: ok({ positions: state.positions.filter((p) => p.accountId === accountId) }) };
      }
      case 'Contract/searchById': {
        const contract = state.contracts.find((c) => c.id === body.contractId);
        if (!contract)
          return {
            status: 200,
            json: refused(1, 'Contract not found', options.contractShape === 'contract' ? { contract: null } : { contracts: [] }),
          };
        return { status: 200, json: ok(options.contractShape === 'contract' ? { contract } : { contracts: [contract] }) };
      }
      case 'Contract/search': {
        // "The name of the contract to search for": the documentation's 'NQ' finds ENQH25, MNQH25, NQGG25 and NQMG25.
        const text = String(body.searchText ?? '').toUpperCase();
        return { status: 200, json: ok({ contracts: state.contracts.filter((c) => c.name.toUpperCase().includes(text)) }) };
      }
      case 'History/retrieveBars': {
        const unit = Number(body.unit);
        const unitNumber = Number(body.unitNumber);
        const limit = Number(body.limit);
        if (!state.contracts.some((c) => c.id === body.contractId)) return { status: 200, json: refused(1, 'Contract not found', { bars: null }) };
        if (!(unit >= 1 && unit <= 6)) return { status: 200, json: refused(2, 'Unit invalid', { bars: null }) };
        if (!(unitNumber >= 1)) return { status: 200, json: refused(3, 'Unit number invalid', { bars: null }) };
        if (!(limit >= 1 && limit <= 20_000)) return { status: 200, json: refused(4, 'Limit invalid', { bars: null }) };
        const from = Date.parse(String(body.startTime));
        const to = Date.parse(String(body.endTime));
        // Only one-minute bars are kept here; other units are not asked for by Edgebook.
        const bars = (state.bars.get(String(body.contractId)) ?? [])
          .filter((b) => Date.parse(b.t) >= from && Date.parse(b.t) <= to)
          .sort((a, b) => b.t.localeCompare(a.t))
          .slice(0, limit);
        return { status: 200, json: ok({ bars }) };
      }
      default:
        return { status: 404 };
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const endpoint = (req.url ?? '').replace(/^\/api\//, '').split('?')[0]!;
      let body: Record<string, unknown> = {};
      try {
        body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
      } catch {
        body = {};
      }
      const auth = req.headers.authorization ?? '';
      const bearer = auth.startsWith('Bearer ') ? auth.slice(7) : null;
      const queue = scripts.get(endpoint);
      const scripted = queue?.shift();
      const answer = (status: number, json?: unknown, retryAfter?: number) => {
        calls.push({ endpoint, at: Date.now(), status, body, token: bearer });
        if (res.destroyed) return;
        res.writeHead(status, {
          'content-type': 'application/json; charset=utf-8',
          ...(retryAfter !== undefined && { 'retry-after': String(retryAfter) }),
        });
        res.end(json === undefined ? '' : JSON.stringify(json));
      };
      if (req.method !== 'POST') return answer(405);
      if (scripted?.kind === 'status')
        return answer(scripted.status, scripted.status === 429 ? undefined : { title: 'scripted failure' }, scripted.retryAfter);
      const reply = () => {
        const result = handle(endpoint, body, bearer);
        answer(result.status, result.json, result.retryAfter);
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

  const push = (endpoint: string, item: Scripted, times: number) => {
    const queue = scripts.get(endpoint) ?? [];
    for (let i = 0; i < times; i++) queue.push(item);
    scripts.set(endpoint, queue);
  };

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    get accounts() {
      return state.accounts;
    },
    set accounts(value) {
      state.accounts = value;
    },
    get trades() {
      return state.trades;
    },
    set trades(value) {
      state.trades = value;
    },
    get orders() {
      return state.orders;
    },
    set orders(value) {
      state.orders = value;
    },
    get positions() {
      return state.positions;
    },
    set positions(value) {
      state.positions = value;
    },
    get contracts() {
      return state.contracts;
    },
    set contracts(value) {
      state.contracts = value;
    },
    get bars() {
      return state.bars;
    },
    set bars(value) {
      state.bars = value;
    },
    fail: (endpoint, status, times = 1, retryAfter, after = 0) => {
      push(endpoint, { kind: 'pass' }, after);
      push(endpoint, { kind: 'status', status, ...(retryAfter !== undefined && { retryAfter }) }, times);
    },
    delay: (endpoint, ms, times = 1) => push(endpoint, { kind: 'delay', ms }, times),
    expireTokens: () => {
      for (const session of tokens.values()) session.expiresAt = 0;
    },
    revokeKey: (userName) => void revoked.add(userName),
    setKey: (userName, apiKey) => {
      keys.set(userName, apiKey);
      revoked.delete(userName);
    },
    count: (endpoint, status = 200) => calls.filter((c) => c.endpoint === endpoint && c.status === status).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Half-turns of round trips, numbered as the gateway numbers them (ids and order ids rising in time): each trip is
 * [side, size, price, time] entries then exits, with `pnl` on the closing half-turns from the contract's tick value.
 */
export function halfTurns(
  accountId: number,
  contract: StandInContract,
  fills: Array<{ side: 'Buy' | 'Sell'; size: number; price: number; at: string; fees?: number; pnl?: number | null }>,
  firstId: number,
): StandInTrade[] {
  return fills.map((f, i) => ({
    id: firstId + i,
    accountId,
    contractId: contract.id,
    creationTimestamp: f.at,
    price: f.price,
    profitAndLoss: f.pnl ?? null,
    fees: f.fees ?? 0.37,
    side: f.side === 'Buy' ? 0 : 1,
    size: f.size,
    voided: false,
    orderId: 50_000 + firstId + i,
  }));
}
