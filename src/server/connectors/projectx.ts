import crypto from 'node:crypto';
import { z } from 'zod';
import { Decimal } from '../../domain/money';
import { contractSpecOf, providerRootOf } from '../../domain/connections/round-trips';
import { parseInstrument } from '../../domain/instruments';
import { CONFIGURED_FIRM, hostOf } from './projectx-firms';
import {
  ConnectorError,
  type BrokerAccount,
  type BrokerBar,
  type BrokerContract,
  type BrokerFill,
  type BrokerOrder,
  type BrokerPosition,
  type ConnectOptions,
  type Connector,
  type ConnectorCredentials,
  type ConnectorSession,
} from './types';

/**
 * The ProjectX Gateway API (https://gateway.docs.projectx.com), which TopstepX and other prop firms run, each at its own
 * gateway: a trader signs in with their user name and an API key (POST /api/Auth/loginKey) and gets a session token
 * valid for 24 hours, which /api/Auth/validate renews; /api/Account/search lists their accounts, /api/Trade/search a
 * time window of fills ("half-turns", P&L on the closing ones, fees on each), /api/Order/search the orders placed in a
 * window (a bracket's stop among them), /api/Position/searchOpen the positions open now, /api/Contract/searchById and
 * /api/Contract/search describe contracts, /api/History/retrieveBars gives bars. Every answer is HTTP 200 with
 * `success` and an `errorCode` (0 is success) unless the session token is refused (401) or the gateway limits the rate
 * (429, with no Retry-After documented).
 */

export interface ProjectXOptions {
  /** The gateway's address (a firm's, or PROJECTX_API_URL), without /api. */
  baseUrl: string;
  /** The firm's name as the trader knows it ('TopstepX'). */
  label: string;
  /** The firm's id in projectx-firms.ts; 'configured' by default (PROJECTX_API_URL). */
  firm?: string;
  /** Longest one request may take, ms. */
  timeoutMs: number;
  /** First pause between attempts, ms (doubling), when the gateway is failing. */
  retryBaseMs?: number;
  /**
   * First pause after a 429 without Retry-After, ms (doubling, with up to a quarter more at random so that several
   * syncs limited at once do not come back together). The documentation gives no Retry-After; 1 s by default.
   */
  rateLimitBaseMs?: number;
}

/** Docs, "Validate Session": tokens are valid for 24 hours. An hour's margin renews them before they lapse. */
const RENEW_AFTER_MS = 23 * 3600_000;
/** Docs, "Rate Limits": 30 requests / 30 s for retrieveBars, 200 / 60 s for every other endpoint. */
const BAR_RATE = { limit: 30, windowMs: 30_000 };
const OTHER_RATE = { limit: 200, windowMs: 60_000 };
/** Docs, "Retrieve Bars": at most 20,000 bars per request. */
const MAX_BARS = 20_000;
/** AggregateBarUnit 2 = Minute. */
const MINUTE_UNIT = 2;
/** A Retry-After longer than this is not waited for inside one sync: the next one will come. */
const LONGEST_WAIT_MS = 60_000;

/** OrderSide: 0 = Bid (buy), 1 = Ask (sell). */
const SIDES = { 0: 'Buy', 1: 'Sell' } as const;
/** OrderType: 1 Limit, 2 Market, 3 StopLimit, 4 Stop, 5 TrailingStop (6 JoinBid and 7 JoinAsk are limits at the book). */
const ORDER_TYPES: Record<number, BrokerOrder['type']> = {
  1: 'limit',
  2: 'market',
  3: 'stop-limit',
  4: 'stop',
  5: 'trailing-stop',
  6: 'limit',
  7: 'limit',
};
/** OrderStatus: 0 None, 1 Open, 2 Filled, 3 Cancelled, 4 Expired, 5 Rejected, 6 Pending. */
const ORDER_STATUSES: Record<number, BrokerOrder['status']> = { 1: 'open', 2: 'filled', 3: 'cancelled', 4: 'expired', 5: 'rejected', 6: 'pending' };
/** PositionType: 1 Long, 2 Short. */
const POSITION_TYPES = { 1: 'Long', 2: 'Short' } as const;

// ---------------------------------------------------------------------------------------------------------------
// Answers, read leniently: fields the gateway adds later are ignored; numbers may come as numbers or strings.

const num = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/)]);
const idText = z.union([z.number(), z.string().min(1)]).transform(String);
const base = { success: z.boolean(), errorCode: z.number().nullish(), errorMessage: z.string().nullish() };

const loginAnswer = z.looseObject({ ...base, token: z.string().nullish() });
const validateAnswer = z.looseObject({ ...base, newToken: z.string().nullish() });
const accountsAnswer = z.looseObject({
  ...base,
  accounts: z
    .array(
      z.looseObject({
        id: idText,
        name: z.string(),
        balance: num.nullish(),
        canTrade: z.boolean().nullish(),
        isVisible: z.boolean().nullish(),
        simulated: z.boolean().nullish(),
      }),
    )
    .nullish(),
});
const tradesAnswer = z.looseObject({
  ...base,
  trades: z
    .array(
      z.looseObject({
        id: idText,
        contractId: z.string().min(1),
        creationTimestamp: z.string().min(1),
        price: num,
        profitAndLoss: num.nullish(),
        fees: num.nullish(),
        side: z.union([z.literal(0), z.literal(1)]),
        size: num,
        voided: z.boolean().nullish(),
        orderId: idText.nullish(),
      }),
    )
    .nullish(),
});
const contractShape = z.looseObject({ id: z.string(), name: z.string(), description: z.string().nullish(), tickSize: num, tickValue: num });
// The documentation's example answers searchById with `contracts` (a list of one); the gateway's schema names it
// `contract`. Either is read.
const contractAnswer = z.looseObject({ ...base, contract: contractShape.nullish(), contracts: z.array(contractShape).nullish() });
const contractsAnswer = z.looseObject({ ...base, contracts: z.array(contractShape).nullish() });
const ordersAnswer = z.looseObject({
  ...base,
  orders: z
    .array(
      z.looseObject({
        id: idText,
        contractId: z.string().min(1),
        creationTimestamp: z.string().min(1),
        status: z.number().nullish(),
        type: z.number(),
        side: z.union([z.literal(0), z.literal(1)]),
        size: num,
        limitPrice: num.nullish(),
        stopPrice: num.nullish(),
      }),
    )
    .nullish(),
});
const positionsAnswer = z.looseObject({
  ...base,
  positions: z
    .array(
      z.looseObject({
        contractId: z.string().min(1),
        creationTimestamp: z.string().min(1),
        type: z.union([z.literal(1), z.literal(2)]),
        size: num,
        averagePrice: num,
      }),
    )
    .nullish(),
});
const barsAnswer = z.looseObject({
  ...base,
  bars: z.array(z.looseObject({ t: z.string(), o: num, h: num, l: num, c: num, v: num.nullish() })).nullish(),
});

const decimalText = (value: number | string) => new Decimal(value).toFixed();

function instant(text: string, endpoint: string): string {
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) throw unreadable(endpoint, `a time Edgebook cannot read ('${text.slice(0, 40)}')`);
  return new Date(ms).toISOString();
}

// ---------------------------------------------------------------------------------------------------------------
// Per process: session tokens by credentials, and the rate windows by user (the gateway counts per signed-in user).

const tokens = new Map<string, { token: string; issuedAt: number }>();
const windows = new Map<string, { bars: SlidingWindow; other: SlidingWindow }>();

const digest = (...parts: string[]) => crypto.createHash('sha256').update(parts.join('\u0000')).digest('hex');

class SlidingWindow {
  private readonly times: number[] = [];
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Waits until one more request fits in the window, then counts it. */
  async take(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = Date.now();
      while (this.times.length > 0 && this.times[0]! <= now - this.windowMs) this.times.shift();
      if (this.times.length < this.limit) {
        this.times.push(now);
        return;
      }
      await sleep(this.times[0]! + this.windowMs - now, signal);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted());
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const aborted = () => new ConnectorError('aborted', 'The request was stopped (the server is shutting down).');

function unreadable(endpoint: string, what: string): ConnectorError {
  return new ConnectorError('unexpected', `The broker answered ${endpoint} with ${what}, which Edgebook cannot read.`, { endpoint });
}

// ---------------------------------------------------------------------------------------------------------------

export function createProjectXConnector(options: ProjectXOptions): Connector {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const host = new URL(baseUrl).host;
  const { label, timeoutMs } = options;
  const retryBaseMs = options.retryBaseMs ?? 500;
  const rateLimitBaseMs = options.rateLimitBaseMs ?? 1000;
  const seconds = Math.round(timeoutMs / 100) / 10;

  const messages = {
    credentials: `${label} refused this user name and API key. Check both in ${label} (Settings, API), then connect again.`,
    refused: `${label} refused the session. Check the user name and API key in ${label} (Settings, API), then connect again.`,
    unreachable: `Edgebook could not reach ${label} at ${host}. Check this server's internet connection, or try again later.`,
    timeout: `${label} did not answer within ${seconds} ${seconds === 1 ? 'second' : 'seconds'}. Try again later.`,
    rateLimited: `${label} is limiting how often Edgebook may ask (too many requests). Try again in a minute.`,
    failing: (status: number) => `${label}'s API is having trouble right now (HTTP ${status}). Try again in a few minutes.`,
  };

  const loginErrors: Record<number, string> = {
    1: messages.credentials,
    2: messages.credentials,
    3: messages.credentials,
    7: `${label} asks you to accept its API agreements first: accept them in ${label}, then connect again.`,
    9: `This ${label} user has no API access: API access is an add-on you subscribe to in ${label}. Subscribe, then connect again.`,
    10: `API-key sign-in is turned off for this ${label} user. Turn it on in ${label}, then connect again.`,
  };

  interface Answer {
    status: number;
    body: unknown;
  }

  /**
   * One POST, tried again when the gateway limits the rate (as long as its Retry-After says; without one, pauses
   * doubling from rateLimitBaseMs with jitter), fails (5xx), cannot be reached or is too slow. A 401 is returned to the
   * caller, who renews the session.
   */
  async function post(
    endpoint: string,
    body: unknown,
    call: { token?: string; window: SlidingWindow; attempts: number; signal?: AbortSignal },
  ): Promise<Answer> {
    let failure: ConnectorError | undefined;
    for (let attempt = 0; attempt < call.attempts; attempt++) {
      if (call.signal?.aborted) throw aborted();
      await call.window.take(call.signal);
      let wait = retryBaseMs * 2 ** attempt;
      const timer = AbortSignal.timeout(timeoutMs);
      try {
        const response = await fetch(`${baseUrl}/api/${endpoint}`, {
          method: 'POST',
          headers: {
            accept: 'application/json',
            'content-type': 'application/json',
            ...(call.token !== undefined && { authorization: `Bearer ${call.token}` }),
          },
          body: JSON.stringify(body),
          signal: call.signal ? AbortSignal.any([call.signal, timer]) : timer,
        });
        if (response.status === 429) {
          await response.body?.cancel();
          failure = new ConnectorError('rate-limited', messages.rateLimited, { endpoint, status: 429 });
          // An absent header is no answer: Number(null) would read as "retry at once".
          const header = response.headers.get('retry-after');
          const after = header === null || header.trim() === '' ? Number.NaN : Number(header);
          const doubling = rateLimitBaseMs * 2 ** attempt;
          wait = Number.isFinite(after) && after >= 0 ? after * 1000 : doubling + Math.floor(Math.random() * doubling * 0.25);
          if (wait > LONGEST_WAIT_MS) break;
        } else if (response.status >= 500) {
          await response.body?.cancel();
          failure = new ConnectorError('unavailable', messages.failing(response.status), { endpoint, status: response.status });
        } else if (response.status === 401 || response.status === 403) {
          await response.body?.cancel();
          return { status: response.status, body: null };
        } else if (response.status !== 200) {
          await response.body?.cancel();
          throw new ConnectorError('unexpected', `${label} refused the request (HTTP ${response.status}).`, { endpoint, status: response.status });
        } else {
          const text = await response.text();
          try {
            return { status: 200, body: JSON.parse(text) };
          } catch {
            throw unreadable(endpoint, 'something other than JSON');
          }
        }
      } catch (error) {
        if (error instanceof ConnectorError) throw error;
        if (call.signal?.aborted) throw aborted();
        failure = timer.aborted
          ? new ConnectorError('timeout', messages.timeout, { endpoint })
          : new ConnectorError('unavailable', messages.unreachable, { endpoint });
      }
      if (attempt + 1 < call.attempts) await sleep(wait, call.signal);
    }
    throw failure!;
  }

  function read<S extends z.ZodType>(schema: S, endpoint: string, body: unknown): z.infer<S> {
    const parsed = schema.safeParse(body);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    throw unreadable(endpoint, `an answer missing '${issue.path.join('.') || 'everything'}'`);
  }

  return {
    id: 'topstepx',
    firm: options.firm ?? CONFIGURED_FIRM,
    barSource: `projectx:${hostOf(baseUrl)}`,
    label,
    async connect(credentials: ConnectorCredentials, connectOptions: ConnectOptions = {}): Promise<ConnectorSession> {
      const attempts = connectOptions.attempts ?? 4;
      const signal = connectOptions.signal;
      const tokenKey = digest(baseUrl, credentials.userName, credentials.apiKey);
      const windowKey = digest(baseUrl, credentials.userName.toLowerCase());
      let rate = windows.get(windowKey);
      if (!rate)
        windows.set(
          windowKey,
          (rate = { bars: new SlidingWindow(BAR_RATE.limit, BAR_RATE.windowMs), other: new SlidingWindow(OTHER_RATE.limit, OTHER_RATE.windowMs) }),
        );
      const { bars: barWindow, other: otherWindow } = rate;

      async function login(): Promise<string> {
        const answer = await post(
          'Auth/loginKey',
          { userName: credentials.userName, apiKey: credentials.apiKey },
          { window: otherWindow, attempts, signal },
        );
        if (answer.status !== 200)
          throw new ConnectorError('credentials', messages.credentials, { endpoint: 'Auth/loginKey', status: answer.status });
        const body = read(loginAnswer, 'Auth/loginKey', answer.body);
        if (!body.success || !body.token) {
          const code = body.errorCode ?? -1;
          const known = loginErrors[code];
          throw new ConnectorError(known ? 'credentials' : 'unexpected', known ?? `${label} refused the sign-in (error code ${code}).`, {
            endpoint: 'Auth/loginKey',
            code,
          });
        }
        tokens.set(tokenKey, { token: body.token, issuedAt: Date.now() });
        return body.token;
      }

      /** Docs, "Validate Session": the token, expired or about to, is exchanged for a new one. Null when refused. */
      async function renew(token: string): Promise<string | null> {
        const answer = await post('Auth/validate', {}, { token, window: otherWindow, attempts, signal });
        if (answer.status !== 200) return null;
        const body = read(validateAnswer, 'Auth/validate', answer.body);
        if (!body.success || !body.newToken) return null;
        tokens.set(tokenKey, { token: body.newToken, issuedAt: Date.now() });
        return body.newToken;
      }

      async function currentToken(): Promise<string> {
        const held = tokens.get(tokenKey);
        if (!held) return login();
        if (Date.now() - held.issuedAt < RENEW_AFTER_MS) return held.token;
        return (await renew(held.token)) ?? login();
      }

      /** A call with the session token; a refused token is renewed (validate, else a new sign-in) and the call repeated. */
      async function authorized(endpoint: string, body: unknown, window: SlidingWindow): Promise<unknown> {
        let token = await currentToken();
        let answer = await post(endpoint, body, { token, window, attempts, signal });
        if (answer.status === 200) return answer.body;
        const renewed = await renew(token);
        if (renewed) {
          token = renewed;
          answer = await post(endpoint, body, { token, window, attempts, signal });
          if (answer.status === 200) return answer.body;
        }
        tokens.delete(tokenKey);
        token = await login();
        answer = await post(endpoint, body, { token, window, attempts, signal });
        if (answer.status === 200) return answer.body;
        throw new ConnectorError('credentials', messages.refused, { endpoint, status: answer.status });
      }

      function failed(endpoint: string, body: { errorCode?: number | null }): ConnectorError {
        return new ConnectorError('unexpected', `${label} could not answer ${endpoint} (error code ${body.errorCode ?? 'none'}).`, {
          endpoint,
          code: body.errorCode ?? undefined,
        });
      }

      // Signing in now: a wrong key is found by "Test connection", not by the first sync.
      await currentToken();

      async function contractById(contractId: string): Promise<BrokerContract | null> {
        const body = read(contractAnswer, 'Contract/searchById', await authorized('Contract/searchById', { contractId }, otherWindow));
        // SearchContractByIdErrorCode 1 = ContractNotFound.
        if (!body.success) {
          if (body.errorCode === 1) return null;
          throw failed('Contract/searchById', body);
        }
        const found = body.contract ?? body.contracts?.find((c) => c.id === contractId) ?? body.contracts?.[0] ?? null;
        return found ? toContract(found) : null;
      }

      return {
        async listAccounts(): Promise<BrokerAccount[]> {
          // Every account, the inactive ones too: a combine that ended still has its trades to journal.
          const all = read(accountsAnswer, 'Account/search', await authorized('Account/search', { onlyActiveAccounts: false }, otherWindow));
          if (!all.success) throw failed('Account/search', all);
          const active = read(accountsAnswer, 'Account/search', await authorized('Account/search', { onlyActiveAccounts: true }, otherWindow));
          const activeIds = new Set((active.accounts ?? []).map((a) => a.id));
          const seen = new Map<string, BrokerAccount>();
          for (const a of [...(all.accounts ?? []), ...(active.accounts ?? [])]) {
            if (seen.has(a.id)) continue;
            seen.set(a.id, {
              externalId: a.id,
              name: a.name,
              balance: a.balance === null || a.balance === undefined ? null : decimalText(a.balance),
              canTrade: a.canTrade ?? false,
              active: activeIds.has(a.id),
              simulated: a.simulated ?? null,
            });
          }
          return [...seen.values()];
        },

        async fetchFills(accountExternalId: string, range: { from: Date; to: Date }): Promise<BrokerFill[]> {
          const accountId = Number(accountExternalId);
          if (!Number.isSafeInteger(accountId))
            throw new ConnectorError('not-found', `${label} has no account ${accountExternalId}.`, { endpoint: 'Trade/search' });
          const body = read(
            tradesAnswer,
            'Trade/search',
            await authorized(
              'Trade/search',
              { accountId, startTimestamp: range.from.toISOString(), endTimestamp: range.to.toISOString() },
              otherWindow,
            ),
          );
          if (!body.success) {
            // SearchTradeErrorCode 1 = AccountNotFound.
            if (body.errorCode === 1)
              throw new ConnectorError('not-found', `${label} no longer lists this account.`, { endpoint: 'Trade/search', code: 1 });
            throw failed('Trade/search', body);
          }
          return (body.trades ?? []).map((t) => ({
            externalId: t.id,
            contractId: t.contractId,
            time: instant(t.creationTimestamp, 'Trade/search'),
            side: SIDES[t.side],
            quantity: decimalText(t.size),
            price: decimalText(t.price),
            fees: t.fees === null || t.fees === undefined ? '0' : new Decimal(t.fees).abs().toFixed(),
            pnl: t.profitAndLoss === null || t.profitAndLoss === undefined ? null : decimalText(t.profitAndLoss),
            orderId: t.orderId ?? null,
            voided: t.voided ?? false,
          }));
        },

        contract: contractById,

        /**
         * A journal's contract (NQM5) as the gateway names it: searched by the gateway's own root (its E-minis are EP
         * and ENQ: 'ES' finds only MES), matched as the sync files the gateway's contracts (ENQM25 is NQM5).
         */
        async findContract(name: string): Promise<BrokerContract | null> {
          const wanted = parseInstrument(name);
          const searchText = providerRootOf(wanted.root);
          const body = read(contractsAnswer, 'Contract/search', await authorized('Contract/search', { searchText, live: false }, otherWindow));
          if (!body.success) throw failed('Contract/search', body);
          const found = (body.contracts ?? []).find(
            (c) => contractSpecOf(c.id, { name: c.name, tickSize: String(c.tickSize), tickValue: String(c.tickValue) }).contract === wanted.contract,
          );
          return found ? toContract(found) : null;
        },

        async fetchBars(contractId: string, range: { from: Date; to: Date }): Promise<BrokerBar[]> {
          const out = new Map<string, BrokerBar>();
          // Both ends are inclusive: a window holds at most MAX_BARS bar starts, and the next one starts a minute later.
          const last = range.to.getTime();
          for (let from = range.from.getTime(), to = 0; from <= last; from = to + 60_000) {
            to = Math.min(from + (MAX_BARS - 1) * 60_000, last);
            const body = read(
              barsAnswer,
              'History/retrieveBars',
              await authorized(
                'History/retrieveBars',
                {
                  contractId,
                  // The simulated data subscription: the one every TopstepX account has.
                  live: false,
                  startTime: new Date(from).toISOString(),
                  endTime: new Date(to).toISOString(),
                  unit: MINUTE_UNIT,
                  unitNumber: 1,
                  limit: MAX_BARS,
                  includePartialBar: false,
                },
                barWindow,
              ),
            );
            // RetrieveBarErrorCode 1 = ContractNotFound: no bars to give.
            if (!body.success) {
              if (body.errorCode === 1) return [];
              throw failed('History/retrieveBars', body);
            }
            for (const bar of body.bars ?? []) {
              const start = instant(bar.t, 'History/retrieveBars');
              out.set(start, {
                start,
                open: decimalText(bar.o),
                high: decimalText(bar.h),
                low: decimalText(bar.l),
                close: decimalText(bar.c),
                volume: bar.v === null || bar.v === undefined ? null : decimalText(bar.v),
              });
            }
          }
          // The gateway gives the newest bar first.
          return [...out.values()].sort((a, b) => a.start.localeCompare(b.start));
        },

        async fetchOrders(accountExternalId: string, range: { from: Date; to: Date }): Promise<BrokerOrder[]> {
          const accountId = Number(accountExternalId);
          if (!Number.isSafeInteger(accountId))
            throw new ConnectorError('not-found', `${label} has no account ${accountExternalId}.`, { endpoint: 'Order/search' });
          const body = read(
            ordersAnswer,
            'Order/search',
            await authorized(
              'Order/search',
              { accountId, startTimestamp: range.from.toISOString(), endTimestamp: range.to.toISOString() },
              otherWindow,
            ),
          );
          if (!body.success) {
            if (body.errorCode === 1)
              throw new ConnectorError('not-found', `${label} no longer lists this account.`, { endpoint: 'Order/search', code: 1 });
            throw failed('Order/search', body);
          }
          return (body.orders ?? []).map((o) => ({
            externalId: o.id,
            contractId: o.contractId,
            createdAt: instant(o.creationTimestamp, 'Order/search'),
            type: ORDER_TYPES[o.type] ?? 'other',
            side: SIDES[o.side],
            size: decimalText(o.size),
            stopPrice: o.stopPrice === null || o.stopPrice === undefined ? null : decimalText(o.stopPrice),
            limitPrice: o.limitPrice === null || o.limitPrice === undefined ? null : decimalText(o.limitPrice),
            status: (o.status !== null && o.status !== undefined && ORDER_STATUSES[o.status]) || 'other',
          }));
        },

        async openPositions(accountExternalId: string): Promise<BrokerPosition[]> {
          const accountId = Number(accountExternalId);
          if (!Number.isSafeInteger(accountId))
            throw new ConnectorError('not-found', `${label} has no account ${accountExternalId}.`, { endpoint: 'Position/searchOpen' });
          const body = read(positionsAnswer, 'Position/searchOpen', await authorized('Position/searchOpen', { accountId }, otherWindow));
          if (!body.success) {
            if (body.errorCode === 1)
              throw new ConnectorError('not-found', `${label} no longer lists this account.`, { endpoint: 'Position/searchOpen', code: 1 });
            throw failed('Position/searchOpen', body);
          }
          return (body.positions ?? []).map((p) => ({
            contractId: p.contractId,
            side: POSITION_TYPES[p.type],
            size: decimalText(p.size),
            averagePrice: decimalText(p.averagePrice),
            since: instant(p.creationTimestamp, 'Position/searchOpen'),
          }));
        },
      };
    },
  };
}

function toContract(c: z.infer<typeof contractShape>): BrokerContract {
  return {
    id: c.id,
    name: c.name,
    description: c.description ?? '',
    tickSize: decimalText(c.tickSize),
    tickValue: decimalText(c.tickValue),
  };
}

/** Forgets every session token this process holds (tests: a fresh sign-in). */
export function forgetProjectXSessions() {
  tokens.clear();
  windows.clear();
}
