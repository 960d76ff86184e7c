import crypto from 'node:crypto';
import { z } from 'zod';
import { Decimal } from '../../domain/money';
import { SETTLEMENT_CURRENCIES, type SettlementCurrency } from '../../domain/instruments';
import { ConnectorError, type BrokerBar, type ConnectOptions } from './types';
import {
  describeWait,
  exchangeFetch,
  exchangeMessages,
  LONGEST_WAIT_MS,
  retryAfterMs,
  sleep,
  type ExchangeAnswer,
  type ExchangeHttpOptions,
} from './exchange-http';
import type {
  ExchangeAccount,
  ExchangeConnector,
  ExchangeCredentials,
  ExchangeFill,
  ExchangeFills,
  ExchangeFunding,
  ExchangeInstrument,
  ExchangeReadProgress,
  ExchangeSession,
} from './exchanges';

/**
 * Binance USD-M futures, read with a trader's API key and secret.
 *
 * Signed requests carry `timestamp` (ms) and `recvWindow` in their query, and `signature`: the hex HMAC-SHA256 of the
 * whole query string under the secret; the key goes in the X-MBX-APIKEY header. Binance refuses a request whose
 * timestamp is more than a second ahead of its clock or older than recvWindow, so the offset of this server's clock is
 * measured first (GET /fapi/v1/time) and every timestamp is taken on Binance's clock.
 *
 * Every request costs a weight, and an IP may spend so much a minute; each answer says how much was spent this minute
 * (X-MBX-USED-WEIGHT-1M), and a request that would go over the budget waits for the next minute. Past the limit Binance
 * answers 429 with Retry-After, and banns an IP that keeps asking (418, Retry-After up to days): neither is pushed.
 *
 * What is read: the key's permissions (GET /sapi/v1/account/apiRestrictions, on the spot API's host), the futures
 * wallet (GET /fapi/v2/balance), the contracts (GET /fapi/v1/exchangeInfo), the account's income history (GET
 * /fapi/v1/income: realized P&L, commissions and funding, which name every symbol the account traded; three months
 * back), its fills per symbol (GET /fapi/v1/userTrades, at most 7 days a request, six months back) and the public
 * one-minute klines (GET /fapi/v1/klines).
 */

export interface BinanceOptions {
  /** The USD-M futures API (https://fapi.binance.com). */
  futuresUrl: string;
  /** The spot API, where a key's permissions are read (https://api.binance.com). */
  spotUrl: string;
  timeoutMs: number;
  retryBaseMs?: number;
  /** How long a signed request stays valid at Binance, ms (it allows up to 60,000). */
  recvWindowMs?: number;
  /** Weight this server spends a minute at most: under Binance's 2,400, leaving room for the trader's other tools. */
  weightPerMinute?: number;
}

const LABEL = 'Binance';
/** The request weights Binance documents for what Edgebook asks. */
const WEIGHTS = { time: 1, exchangeInfo: 1, balance: 5, positionRisk: 5, income: 30, userTrades: 5, klines: 10 } as const;
/** userTrades: at most 7 days between startTime and endTime; 1,000 trades a request; six months back. */
const TRADE_WINDOW_MS = 7 * 86_400_000 - 1;
const TRADES_LIMIT = 1000;
export const BINANCE_TRADE_HISTORY_DAYS = 180;
/** income: 1,000 rows a request; three months back. */
const INCOME_LIMIT = 1000;
export const BINANCE_INCOME_HISTORY_DAYS = 90;
/** klines: 1,500 bars a request. */
const KLINE_LIMIT = 1500;

const num = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/)]).transform((v) => new Decimal(v).toFixed());
const errorBody = z.looseObject({ code: z.number(), msg: z.string().nullish() });
const timeAnswer = z.looseObject({ serverTime: z.number() });
const restrictions = z.looseObject({
  ipRestrict: z.boolean().nullish(),
  enableReading: z.boolean().nullish(),
  enableWithdrawals: z.boolean().nullish(),
  enableInternalTransfer: z.boolean().nullish(),
  permitsUniversalTransfer: z.boolean().nullish(),
  enableFutures: z.boolean().nullish(),
  enableMargin: z.boolean().nullish(),
  enableSpotAndMarginTrading: z.boolean().nullish(),
  enableVanillaOptions: z.boolean().nullish(),
  enablePortfolioMarginTrading: z.boolean().nullish(),
});
const balances = z.array(z.looseObject({ asset: z.string(), balance: num }));
const exchangeInfo = z.looseObject({
  symbols: z.array(
    z.looseObject({
      symbol: z.string(),
      contractType: z.string().nullish(),
      baseAsset: z.string(),
      marginAsset: z.string().nullish(),
      quantityPrecision: z.number().int().nullish(),
    }),
  ),
});
const incomeRows = z.array(
  z.looseObject({
    symbol: z.string().nullish(),
    incomeType: z.string(),
    income: num,
    asset: z.string(),
    time: z.number(),
    tranId: z.union([z.number(), z.string()]).transform(String),
  }),
);
const positions = z.array(z.looseObject({ symbol: z.string(), positionAmt: num }));
const userTrades = z.array(
  z.looseObject({
    id: z.number(),
    symbol: z.string(),
    orderId: z.union([z.number(), z.string()]).transform(String).nullish(),
    side: z.enum(['BUY', 'SELL']),
    price: num,
    qty: num,
    commission: num,
    commissionAsset: z.string(),
    realizedPnl: num.nullish(),
    positionSide: z.enum(['BOTH', 'LONG', 'SHORT']).nullish(),
    time: z.number(),
  }),
);
const klines = z.array(z.tuple([z.number(), num, num, num, num, num]).rest(z.unknown()));

type IncomeRow = z.infer<typeof incomeRows>[number];

/** Per process and host: the weight Binance last reported spent in its current minute. */
const budgets = new Map<string, { minute: number; used: number }>();

export function forgetBinanceBudgets() {
  budgets.clear();
}

const sign = (secret: string, query: string) => crypto.createHmac('sha256', secret).update(query).digest('hex');

export function createBinanceConnector(options: BinanceOptions): ExchangeConnector {
  const futuresUrl = options.futuresUrl.replace(/\/+$/, '');
  const spotUrl = options.spotUrl.replace(/\/+$/, '');
  const http: ExchangeHttpOptions = { label: LABEL, timeoutMs: options.timeoutMs, retryBaseMs: options.retryBaseMs ?? 500 };
  const messages = exchangeMessages(http, new URL(futuresUrl).host);
  const recvWindow = options.recvWindowMs ?? 10_000;
  const weightPerMinute = options.weightPerMinute ?? 1800;

  const credentialMessages = {
    rejected: (ip: string | null) =>
      `Binance refused this API key: it is wrong or deleted, ${ip ? `this server's address (${ip}) is not among the key's trusted IPs` : "this server's IP address is not among the key's trusted IPs"}, or the key may not read futures. Check it in Binance (API Management), then connect again.`,
    format: 'Binance says this is not an API key: check that you copied the whole key (64 letters and digits), then connect again.',
    signature:
      'Binance did not accept the signature: the secret key does not belong to this API key. Copy both again from Binance (API Management), then connect again.',
    clock: `Binance refused the request's time: this server's clock is off by more than Binance allows even after measuring it. Check the server's clock (NTP), then try again.`,
    withdrawals:
      'This Binance API key may withdraw or transfer funds, so Edgebook refuses it: it only needs to read. Create a key with only "Enable Reading" ticked (API Management), then connect that one.',
    noReading:
      'This Binance API key may not read your account ("Enable Reading" is off). Create a key with only "Enable Reading" ticked, then connect it.',
    trading:
      'This key may also trade: Edgebook only ever reads with it, but a key with only "Enable Reading" ticked is safer. You can replace it at any time.',
  };

  /** Waits until `weight` more fits in this minute's budget, as Binance last counted it. */
  async function spend(host: string, weight: number, signal?: AbortSignal) {
    const budget = budgets.get(host);
    const minute = Math.floor(Date.now() / 60_000);
    if (!budget || budget.minute !== minute) return;
    if (budget.used + weight <= weightPerMinute) {
      budget.used += weight;
      return;
    }
    await sleep((minute + 1) * 60_000 - Date.now() + 50, signal);
  }

  function remember(host: string, headers: Headers) {
    const used = Number(headers.get('x-mbx-used-weight-1m'));
    if (Number.isFinite(used) && headers.get('x-mbx-used-weight-1m') !== null) budgets.set(host, { minute: Math.floor(Date.now() / 60_000), used });
  }

  /** An error answer in the trader's words. */
  function failure(endpoint: string, answer: ExchangeAnswer): ConnectorError {
    const parsed = errorBody.safeParse(answer.body);
    const code = parsed.success ? parsed.data.code : undefined;
    const msg = parsed.success ? (parsed.data.msg ?? '') : '';
    const detail = { endpoint, status: answer.status, code };
    if (answer.status === 418) {
      const wait = retryAfterMs(answer.headers);
      return new ConnectorError(
        'rate-limited',
        `Binance has blocked this server's IP address for a while, for asking too often after being told to slow down${wait !== null ? `: for ${describeWait(wait)}` : ''}. Syncs resume once the block is lifted.`,
        detail,
      );
    }
    if (answer.status === 429 || code === -1003)
      return new ConnectorError('rate-limited', messages.rateLimited(retryAfterMs(answer.headers)), detail);
    switch (code) {
      case -2015:
      case -2008:
      case -1002: {
        const ip = /request ip:\s*([0-9a-fA-F:.]+)/i.exec(msg)?.[1] ?? null;
        return new ConnectorError('credentials', credentialMessages.rejected(ip), detail);
      }
      case -2014:
        return new ConnectorError('credentials', credentialMessages.format, detail);
      case -1022:
        return new ConnectorError('credentials', credentialMessages.signature, detail);
      case -1021:
        return new ConnectorError('unexpected', credentialMessages.clock, detail);
      default:
        break;
    }
    if (answer.status === 401) return new ConnectorError('credentials', credentialMessages.rejected(null), detail);
    if (answer.status === 403)
      return new ConnectorError('unavailable', `Binance's firewall refused the request (HTTP 403). Try again later.`, detail);
    return new ConnectorError(
      'unexpected',
      `Binance refused ${endpoint} (${code !== undefined ? `error ${code}` : `HTTP ${answer.status}`}).`,
      detail,
    );
  }

  function read<S extends z.ZodType>(schema: S, endpoint: string, body: unknown): z.infer<S> {
    const parsed = schema.safeParse(body);
    if (parsed.success) return parsed.data;
    throw new ConnectorError(
      'unexpected',
      messages.unreadable(endpoint, `an answer missing '${parsed.error.issues[0]?.path.join('.') || 'everything'}'`),
      { endpoint },
    );
  }

  return {
    id: 'binance',
    label: LABEL,
    barSource: `binance:${new URL(futuresUrl).host.toLowerCase()}`,
    venue: 'BINANCE',
    credential: 'key-secret',
    historyDays: BINANCE_TRADE_HISTORY_DAYS,
    async connect(credentials: ExchangeCredentials, connectOptions: ConnectOptions = {}): Promise<ExchangeSession> {
      if (credentials.kind !== 'key-secret') throw new Error('Binance connects with an API key and secret');
      const { apiKey, apiSecret } = credentials;
      const attempts = connectOptions.attempts ?? 4;
      const signal = connectOptions.signal;
      let offset = 0;

      /** One request, with Binance's rate limits kept: a 429 is waited out when it asks for a short wait. */
      async function request(
        base: string,
        path: string,
        params: Record<string, string | number>,
        call: { signed: boolean; weight: number },
      ): Promise<unknown> {
        const host = new URL(base).host;
        let clockRetried = false;
        for (let tries = 0; ; tries++) {
          await spend(host, call.weight, signal);
          const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
          if (call.signed) {
            query.set('timestamp', String(Date.now() + offset));
            query.set('recvWindow', String(recvWindow));
            query.set('signature', sign(apiSecret, query.toString()));
          }
          const answer = await exchangeFetch(http, {
            method: 'GET',
            url: `${base}${path}${query.size > 0 ? `?${query}` : ''}`,
            headers: call.signed ? { 'X-MBX-APIKEY': apiKey } : {},
            endpoint: path,
            attempts,
            signal,
          });
          remember(host, answer.headers);
          if (answer.status === 200) return answer.body;
          const error = failure(path, answer);
          // The clock drifted since it was measured: measured again, once.
          if (error.detail.code === -1021 && !clockRetried) {
            clockRetried = true;
            await measureClock();
            continue;
          }
          const wait = retryAfterMs(answer.headers);
          if (answer.status === 429 && tries + 1 < attempts && wait !== null && wait <= LONGEST_WAIT_MS) {
            await sleep(wait, signal);
            continue;
          }
          throw error;
        }
      }

      async function measureClock() {
        const before = Date.now();
        const body = read(timeAnswer, '/fapi/v1/time', await request(futuresUrl, '/fapi/v1/time', {}, { signed: false, weight: WEIGHTS.time }));
        const after = Date.now();
        offset = body.serverTime - Math.round((before + after) / 2);
      }

      await measureClock();
      // The key's permissions first: one that may move funds out is refused before anything else is read with it.
      const allowed = read(
        restrictions,
        '/sapi/v1/account/apiRestrictions',
        await request(spotUrl, '/sapi/v1/account/apiRestrictions', {}, { signed: true, weight: 1 }),
      );
      if (allowed.enableWithdrawals || allowed.enableInternalTransfer || allowed.permitsUniversalTransfer) {
        throw new ConnectorError('credentials', credentialMessages.withdrawals, { endpoint: '/sapi/v1/account/apiRestrictions', code: 1 });
      }
      if (allowed.enableReading === false)
        throw new ConnectorError('credentials', credentialMessages.noReading, { endpoint: '/sapi/v1/account/apiRestrictions', code: 2 });
      const trades =
        allowed.enableFutures ||
        allowed.enableMargin ||
        allowed.enableSpotAndMarginTrading ||
        allowed.enableVanillaOptions ||
        allowed.enablePortfolioMarginTrading;
      const keyWarning = trades ? credentialMessages.trading : null;

      let described: Map<string, ExchangeInstrument> | undefined;
      async function instruments(): Promise<ReadonlyMap<string, ExchangeInstrument>> {
        if (described) return described;
        const body = read(
          exchangeInfo,
          '/fapi/v1/exchangeInfo',
          await request(futuresUrl, '/fapi/v1/exchangeInfo', {}, { signed: false, weight: WEIGHTS.exchangeInfo }),
        );
        described = new Map(
          body.symbols.map((s) => {
            const margin = s.marginAsset ?? '';
            const settle = (SETTLEMENT_CURRENCIES as readonly string[]).includes(margin) ? (margin as SettlementCurrency) : null;
            return [
              s.symbol,
              {
                symbol: s.symbol,
                base: s.baseAsset,
                settle,
                kind: s.contractType === 'PERPETUAL' ? 'perpetual' : 'dated',
                quantityDecimals: s.quantityPrecision ?? null,
              },
            ];
          }),
        );
        return described;
      }

      /** Income rows of [from, to], every type, oldest first: paged by time (rows of one millisecond are read again and kept once). */
      const incomeByRange = new Map<string, Promise<IncomeRow[]>>();
      function income(range: { from: Date; to: Date }, progress?: ExchangeReadProgress): Promise<IncomeRow[]> {
        const key = `${range.from.getTime()}|${range.to.getTime()}`;
        let pending = incomeByRange.get(key);
        if (!pending) {
          pending = (async () => {
            const seen = new Map<string, IncomeRow>();
            let start = range.from.getTime();
            const end = range.to.getTime();
            let requests = 0;
            while (start <= end) {
              const page = read(
                incomeRows,
                '/fapi/v1/income',
                await request(
                  futuresUrl,
                  '/fapi/v1/income',
                  { startTime: start, endTime: end, limit: INCOME_LIMIT },
                  { signed: true, weight: WEIGHTS.income },
                ),
              );
              requests += 1;
              await progress?.onRequest?.(requests, requests + (page.length === INCOME_LIMIT ? 1 : 0));
              for (const row of page) seen.set(`${row.incomeType}|${row.tranId}|${row.time}|${row.symbol ?? ''}|${row.asset}`, row);
              if (page.length < INCOME_LIMIT) break;
              const last = page[page.length - 1]!.time;
              // A full page of one millisecond: the next starts after it (Binance gives no finer cursor by time).
              start = last > start ? last : last + 1;
            }
            return [...seen.values()].sort((a, b) => a.time - b.time);
          })();
          incomeByRange.set(key, pending);
        }
        return pending;
      }

      const incomeFloor = () => Date.now() - BINANCE_INCOME_HISTORY_DAYS * 86_400_000;
      const tradeFloor = () => Date.now() - BINANCE_TRADE_HISTORY_DAYS * 86_400_000;

      return {
        keyWarning,

        async listAccounts(): Promise<ExchangeAccount[]> {
          const body = read(
            balances,
            '/fapi/v2/balance',
            await request(futuresUrl, '/fapi/v2/balance', {}, { signed: true, weight: WEIGHTS.balance }),
          );
          return SETTLEMENT_CURRENCIES.map((currency) => {
            const found = body.find((b) => b.asset === currency);
            return {
              externalId: currency,
              name: `USD-M futures · ${currency}`,
              balance: found ? new Decimal(found.balance).toFixed(2) : null,
              canTrade: true,
              active: true,
              simulated: false,
              currency,
            };
          });
        },

        instruments,

        async fetchFills(currency, range, knownSymbols, progress): Promise<ExchangeFills> {
          const notes: string[] = [];
          const listed = await instruments();
          // Symbols from the account's own income (every fill pays a commission, every close realizes P&L), its open
          // positions, and those it traded before: never guessed from the list of contracts.
          const incomeFrom = new Date(Math.max(range.from.getTime(), incomeFloor()));
          const symbols = new Set(knownSymbols);
          if (incomeFrom < range.to) for (const row of await income({ from: incomeFrom, to: range.to })) if (row.symbol) symbols.add(row.symbol);
          const open = read(
            positions,
            '/fapi/v3/positionRisk',
            await request(futuresUrl, '/fapi/v3/positionRisk', {}, { signed: true, weight: WEIGHTS.positionRisk }),
          );
          for (const p of open) if (!new Decimal(p.positionAmt).isZero()) symbols.add(p.symbol);
          if (range.from.getTime() < incomeFloor()) {
            notes.push(
              'Binance keeps three months of income history: symbols traded only before then are read when Edgebook knows them from an earlier sync.',
            );
          }
          const wanted = [...symbols].filter((symbol) => listed.get(symbol)?.settle === currency).sort();
          const from = Math.max(range.from.getTime(), tradeFloor());
          if (range.from.getTime() < tradeFloor())
            notes.push('Binance keeps six months of trades: older fills cannot be read through its API (import its trade-history export for them).');
          const windows: Array<{ from: number; to: number }> = [];
          for (let start = from; start <= range.to.getTime(); start += TRADE_WINDOW_MS + 1)
            windows.push({ from: start, to: Math.min(start + TRADE_WINDOW_MS, range.to.getTime()) });
          const total = wanted.length * windows.length;
          let done = 0;
          const fills = new Map<string, ExchangeFill>();
          for (const symbol of wanted) {
            for (const window of windows) {
              let params: Record<string, string | number> = { symbol, startTime: window.from, endTime: window.to, limit: TRADES_LIMIT };
              for (;;) {
                const page = read(
                  userTrades,
                  '/fapi/v1/userTrades',
                  await request(futuresUrl, '/fapi/v1/userTrades', params, { signed: true, weight: WEIGHTS.userTrades }),
                );
                let past = false;
                for (const t of page) {
                  if (t.time > window.to) past = true;
                  else if (t.time >= window.from) fills.set(`${t.symbol}:${t.id}`, toFill(t));
                }
                if (page.length < TRADES_LIMIT || past) break;
                // More than a page in the window: on from the last trade's id (fromId goes without times).
                params = { symbol, fromId: page[page.length - 1]!.id + 1, limit: TRADES_LIMIT };
              }
              done += 1;
              await progress?.onRequest?.(done, total);
            }
          }
          return { fills: [...fills.values()], notes };
        },

        async fetchFunding(currency, range): Promise<ExchangeFunding[]> {
          const from = new Date(Math.max(range.from.getTime(), incomeFloor()));
          if (from >= range.to) return [];
          const listed = await instruments();
          return (await income({ from, to: range.to }))
            .filter((row) => row.incomeType === 'FUNDING_FEE' && row.symbol && (listed.get(row.symbol)?.settle ?? row.asset) === currency)
            .map((row) => ({
              id: `${row.symbol}:${row.tranId}:${row.time}`,
              symbol: row.symbol!,
              time: new Date(row.time).toISOString(),
              amount: row.income,
              asset: row.asset,
              // Binance's income rows do not say which side of a hedge-mode position paid.
              positionSide: null,
            }));
        },

        async fetchBars(symbol, range): Promise<BrokerBar[]> {
          const out = new Map<number, BrokerBar>();
          const last = range.to.getTime();
          for (let from = range.from.getTime(); from <= last;) {
            const to = Math.min(from + (KLINE_LIMIT - 1) * 60_000, last);
            const rows = read(
              klines,
              '/fapi/v1/klines',
              await request(
                futuresUrl,
                '/fapi/v1/klines',
                { symbol, interval: '1m', startTime: from, endTime: to, limit: KLINE_LIMIT },
                { signed: false, weight: WEIGHTS.klines },
              ),
            );
            for (const [start, open, high, low, close, volume] of rows) {
              if (start >= from && start <= to) out.set(start, { start: new Date(start).toISOString(), open, high, low, close, volume });
            }
            from = to + 60_000;
          }
          return [...out.entries()].sort(([a], [b]) => a - b).map(([, bar]) => bar);
        },
      };
    },
  };
}

function toFill(t: z.infer<typeof userTrades>[number]): ExchangeFill {
  const realized = t.realizedPnl ?? null;
  return {
    id: `${t.symbol}:${t.id}`,
    symbol: t.symbol,
    time: new Date(t.time).toISOString(),
    order: String(t.id),
    side: t.side === 'BUY' ? 'Buy' : 'Sell',
    quantity: t.qty,
    price: t.price,
    // Binance writes a commission with a minus in some answers: it is a cost either way.
    fee: new Decimal(t.commission).abs().toFixed(),
    feeAsset: t.commissionAsset,
    positionSide: t.positionSide ?? 'BOTH',
    // A fill that realized P&L closed (part of) a position; one that realized none may have opened one, or closed at
    // its entry price: Binance does not say which.
    closing: realized !== null && !new Decimal(realized).isZero() ? true : null,
    realizedPnl: realized,
    orderId: t.orderId ?? null,
  };
}
