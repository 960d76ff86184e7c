import crypto from 'node:crypto';
import { z } from 'zod';
import { Decimal } from '../../domain/money';
import { SETTLEMENT_CURRENCIES, type SettlementCurrency } from '../../domain/instruments';
import { ConnectorError, type BrokerBar, type ConnectOptions } from './types';
import { exchangeFetch, exchangeMessages, LONGEST_WAIT_MS, sleep, describeWait, type ExchangeHttpOptions } from './exchange-http';
import type {
  ExchangeAccount,
  ExchangeConnector,
  ExchangeCredentials,
  ExchangeFill,
  ExchangeFills,
  ExchangeFunding,
  ExchangeInstrument,
  ExchangeSession,
} from './exchanges';

/**
 * Bybit's v5 API, linear contracts (USDT and USDC perpetuals), read with a trader's API key and secret.
 *
 * Signed requests carry four headers: X-BAPI-API-KEY, X-BAPI-TIMESTAMP (ms), X-BAPI-RECV-WINDOW and X-BAPI-SIGN, the
 * hex HMAC-SHA256 under the secret of timestamp + key + recvWindow + the query string. Bybit accepts a timestamp from
 * recvWindow before its clock to a second after it, so its clock is read first (GET /v5/market/time). Answers are HTTP
 * 200 with `retCode` 0, or an error code: 10002 the time window, 10003 an invalid key, 10004 the signature, 10005 a
 * permission, 10006 the rate limit, 10010 an IP the key does not trust, 33004 an expired key. Each answer says how many
 * requests of the endpoint remain in its window (X-Bapi-Limit-Status) and when it resets
 * (X-Bapi-Limit-Reset-Timestamp); an IP that asks too often gets HTTP 403 and must wait minutes.
 *
 * What is read: the key (GET /v5/user/query-api: its permissions; one that may withdraw is refused), the wallet (GET
 * /v5/account/wallet-balance), the linear contracts (GET /v5/market/instruments-info), the executions (GET
 * /v5/execution/list: at most 7 days a request, pages by cursor, two years back; funding payments are executions of
 * type Funding), the closed P&L of each closing order (GET /v5/position/closed-pnl, the same windows), and the public
 * one-minute klines (GET /v5/market/kline).
 */

export interface BybitOptions {
  baseUrl: string;
  timeoutMs: number;
  retryBaseMs?: number;
  recvWindowMs?: number;
}

const LABEL = 'Bybit';
const WINDOW_MS = 7 * 86_400_000;
export const BYBIT_HISTORY_DAYS = 730;
const PAGE_LIMIT = 100;
const KLINE_LIMIT = 1000;

const num = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/)]).transform((v) => new Decimal(v).toFixed());
const optionalNum = z
  .union([num, z.literal('')])
  .nullish()
  .transform((v) => (v === '' || v === null || v === undefined ? null : v));
const envelope = z.looseObject({ retCode: z.number(), retMsg: z.string().nullish(), result: z.unknown() });
const timeResult = z.looseObject({ timeSecond: z.string(), timeNano: z.string().nullish() });
const keyInfo = z.looseObject({
  readOnly: z.number(),
  permissions: z.record(z.string(), z.array(z.string())).nullish(),
  uta: z.number().nullish(),
});
const walletResult = z.looseObject({
  list: z.array(z.looseObject({ coin: z.array(z.looseObject({ coin: z.string(), walletBalance: optionalNum })).nullish() })),
});
const instrumentsResult = z.looseObject({
  list: z.array(
    z.looseObject({
      symbol: z.string(),
      contractType: z.string().nullish(),
      baseCoin: z.string(),
      settleCoin: z.string().nullish(),
      lotSizeFilter: z.looseObject({ qtyStep: z.string().nullish() }).nullish(),
    }),
  ),
  nextPageCursor: z.string().nullish(),
});
const executionsResult = z.looseObject({
  list: z.array(
    z.looseObject({
      symbol: z.string(),
      orderId: z.string().nullish(),
      side: z.enum(['Buy', 'Sell']),
      execFee: num,
      execId: z.string(),
      execPrice: num,
      execQty: num,
      execType: z.string(),
      execTime: z.string(),
      feeCurrency: z.string().nullish(),
      closedSize: optionalNum,
      seq: z.union([z.number(), z.string()]).nullish(),
    }),
  ),
  nextPageCursor: z.string().nullish(),
});
const closedPnlResult = z.looseObject({
  list: z.array(z.looseObject({ symbol: z.string(), orderId: z.string(), closedPnl: num })),
  nextPageCursor: z.string().nullish(),
});
const klineResult = z.looseObject({ list: z.array(z.tuple([z.string(), num, num, num, num, num]).rest(z.unknown())) });

/** Executions that are trades of a position: the others (Funding, Settle) are not fills. */
const FILL_TYPES = new Set(['Trade', 'AdlTrade', 'BustTrade', 'Delivery', 'BlockTrade', 'MovePosition']);

const sign = (secret: string, text: string) => crypto.createHmac('sha256', secret).update(text).digest('hex');

export function createBybitConnector(options: BybitOptions): ExchangeConnector {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const http: ExchangeHttpOptions = { label: LABEL, timeoutMs: options.timeoutMs, retryBaseMs: options.retryBaseMs ?? 500 };
  const messages = exchangeMessages(http, new URL(baseUrl).host);
  const recvWindow = options.recvWindowMs ?? 10_000;

  const words = {
    invalidKey:
      'Bybit refused this API key: it is wrong or was deleted, or it belongs to another Bybit site (testnet, or a regional one). Check it in Bybit (API), then connect again.',
    signature:
      'Bybit did not accept the signature: the secret does not belong to this API key. Copy both again from Bybit (API), then connect again.',
    ip: "Bybit refused the request: this server's IP address is not among the key's trusted IPs. Add it in Bybit (API), or create a key for this server, then connect again.",
    expired: 'This Bybit API key has expired. Create a new read-only key in Bybit (API), then replace it here.',
    permission:
      'This Bybit API key may not read what Edgebook needs (Bybit says: permission denied). Create a read-only key with contract and wallet reading, then connect it.',
    clock:
      "Bybit refused the request's time: this server's clock is off by more than Bybit allows even after measuring it. Check the server's clock (NTP), then try again.",
    withdraw:
      'This Bybit API key may withdraw funds, so Edgebook refuses it: it only needs to read. Create a Read-Only key in Bybit (API), then connect that one.',
    trading:
      'This key may also trade (it is not Read-Only): Edgebook only ever reads with it, but a Read-Only key is safer. You can replace it at any time.',
  };

  return {
    id: 'bybit',
    label: LABEL,
    barSource: `bybit:${new URL(baseUrl).host.toLowerCase()}`,
    venue: 'BYBIT',
    credential: 'key-secret',
    historyDays: BYBIT_HISTORY_DAYS,
    async connect(credentials: ExchangeCredentials, connectOptions: ConnectOptions = {}): Promise<ExchangeSession> {
      if (credentials.kind !== 'key-secret') throw new Error('Bybit connects with an API key and secret');
      const { apiKey, apiSecret } = credentials;
      const attempts = connectOptions.attempts ?? 4;
      const signal = connectOptions.signal;
      let offset = 0;
      /** Per endpoint: when its window resets, once Bybit said none of it remains. */
      const exhausted = new Map<string, number>();

      function failure(path: string, code: number, msg: string): ConnectorError {
        const detail = { endpoint: path, code };
        switch (code) {
          case 10003:
            return new ConnectorError('credentials', words.invalidKey, detail);
          case 10004:
            return new ConnectorError('credentials', words.signature, detail);
          case 10010:
            return new ConnectorError('credentials', words.ip, detail);
          case 33004:
            return new ConnectorError('credentials', words.expired, detail);
          case 10005:
            return new ConnectorError('credentials', words.permission, detail);
          case 10002:
            return new ConnectorError('unexpected', words.clock, detail);
          case 10006:
            return new ConnectorError('rate-limited', messages.rateLimited(null), detail);
          default:
            return new ConnectorError('unexpected', `Bybit refused ${path} (error ${code}${msg ? `: ${msg.slice(0, 120)}` : ''}).`, detail);
        }
      }

      async function request(path: string, params: Record<string, string | number | undefined>, signed: boolean): Promise<unknown> {
        let clockRetried = false;
        for (let tries = 0; ; tries++) {
          const resets = exhausted.get(path);
          if (resets !== undefined) {
            exhausted.delete(path);
            const wait = resets - (Date.now() + offset);
            if (wait > LONGEST_WAIT_MS) throw new ConnectorError('rate-limited', messages.rateLimited(wait), { endpoint: path });
            if (wait > 0) await sleep(wait + 20, signal);
          }
          const query = new URLSearchParams(Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))).toString();
          const headers: Record<string, string> = {};
          if (signed) {
            const timestamp = String(Date.now() + offset);
            headers['X-BAPI-API-KEY'] = apiKey;
            headers['X-BAPI-TIMESTAMP'] = timestamp;
            headers['X-BAPI-RECV-WINDOW'] = String(recvWindow);
            headers['X-BAPI-SIGN'] = sign(apiSecret, timestamp + apiKey + String(recvWindow) + query);
          }
          const answer = await exchangeFetch(http, {
            method: 'GET',
            url: `${baseUrl}${path}${query ? `?${query}` : ''}`,
            headers,
            endpoint: path,
            attempts,
            signal,
          });
          const remaining = answer.headers.get('x-bapi-limit-status');
          const reset = Number(answer.headers.get('x-bapi-limit-reset-timestamp'));
          if (remaining !== null && Number(remaining) <= 0 && Number.isFinite(reset)) exhausted.set(path, reset);
          if (answer.status === 403) {
            throw new ConnectorError(
              'rate-limited',
              `Bybit refused this server's IP address (HTTP 403): it asked too often, or Bybit does not serve its region. Bybit asks to wait ${describeWait(600_000)} before asking again.`,
              {
                endpoint: path,
                status: 403,
              },
            );
          }
          if (answer.status === 401) throw new ConnectorError('credentials', words.invalidKey, { endpoint: path, status: 401 });
          const body = envelope.safeParse(answer.body);
          if (!body.success)
            throw new ConnectorError('unexpected', messages.unreadable(path, `HTTP ${answer.status} and no answer`), {
              endpoint: path,
              status: answer.status,
            });
          const { retCode, retMsg, result } = body.data;
          if (retCode === 0) return result;
          if (retCode === 10002 && !clockRetried) {
            clockRetried = true;
            await measureClock();
            continue;
          }
          if (retCode === 10006 && tries + 1 < attempts) {
            const wait = Number.isFinite(reset) ? reset - (Date.now() + offset) : 1000;
            if (wait <= LONGEST_WAIT_MS) {
              await sleep(Math.max(wait, 50), signal);
              continue;
            }
            throw new ConnectorError('rate-limited', messages.rateLimited(wait), { endpoint: path, code: retCode });
          }
          throw failure(path, retCode, retMsg ?? '');
        }
      }

      function read<S extends z.ZodType>(schema: S, path: string, body: unknown): z.infer<S> {
        const parsed = schema.safeParse(body);
        if (parsed.success) return parsed.data;
        throw new ConnectorError(
          'unexpected',
          messages.unreadable(path, `an answer missing '${parsed.error.issues[0]?.path.join('.') || 'everything'}'`),
          { endpoint: path },
        );
      }

      async function measureClock() {
        const before = Date.now();
        const body = read(timeResult, '/v5/market/time', await request('/v5/market/time', {}, false));
        const after = Date.now();
        const server = body.timeNano ? Number(BigInt(body.timeNano) / 1_000_000n) : Number(body.timeSecond) * 1000;
        offset = server - Math.round((before + after) / 2);
      }

      await measureClock();
      const key = read(keyInfo, '/v5/user/query-api', await request('/v5/user/query-api', {}, true));
      const permissions = key.permissions ?? {};
      if ((permissions.Wallet ?? []).includes('Withdraw'))
        throw new ConnectorError('credentials', words.withdraw, { endpoint: '/v5/user/query-api', code: 1 });
      const keyWarning = key.readOnly === 1 ? null : words.trading;
      const accountType = key.uta === 0 ? 'CONTRACT' : 'UNIFIED';

      let described: Map<string, ExchangeInstrument> | undefined;
      async function instruments(): Promise<ReadonlyMap<string, ExchangeInstrument>> {
        if (described) return described;
        const found = new Map<string, ExchangeInstrument>();
        let cursor: string | undefined;
        do {
          const page = read(
            instrumentsResult,
            '/v5/market/instruments-info',
            await request('/v5/market/instruments-info', { category: 'linear', limit: 1000, cursor }, false),
          );
          for (const i of page.list) {
            const settle = (SETTLEMENT_CURRENCIES as readonly string[]).includes(i.settleCoin ?? '') ? (i.settleCoin as SettlementCurrency) : null;
            const step = i.lotSizeFilter?.qtyStep ?? null;
            found.set(i.symbol, {
              symbol: i.symbol,
              base: i.baseCoin,
              settle,
              kind: i.contractType === 'LinearPerpetual' ? 'perpetual' : 'dated',
              quantityDecimals: step === null ? null : new Decimal(step).decimalPlaces(),
            });
          }
          cursor = page.nextPageCursor || undefined;
        } while (cursor);
        described = found;
        return found;
      }

      /** Every page of a cursor-paged list in one window. */
      async function pages<S extends z.ZodType<{ list: unknown[]; nextPageCursor?: string | null }>>(
        path: string,
        schema: S,
        params: Record<string, string | number>,
      ): Promise<Array<z.infer<S>['list'][number]>> {
        const out: Array<z.infer<S>['list'][number]> = [];
        let cursor: string | undefined;
        do {
          const page = read(schema, path, await request(path, { ...params, limit: PAGE_LIMIT, cursor }, true));
          out.push(...(page.list as Array<z.infer<S>['list'][number]>));
          cursor = page.nextPageCursor || undefined;
        } while (cursor);
        return out;
      }

      const windowsOf = (range: { from: Date; to: Date }) => {
        const from = Math.max(range.from.getTime(), Date.now() - BYBIT_HISTORY_DAYS * 86_400_000);
        const windows: Array<{ from: number; to: number }> = [];
        for (let start = from; start < range.to.getTime(); start += WINDOW_MS)
          windows.push({ from: start, to: Math.min(start + WINDOW_MS, range.to.getTime()) });
        return windows;
      };

      /** Executions by window (cached: fills and funding come from the same reads). */
      const executionsByRange = new Map<string, Promise<z.infer<typeof executionsResult>['list']>>();
      function executions(
        currency: SettlementCurrency,
        range: { from: Date; to: Date },
        onRequest?: (done: number, total: number) => Promise<void> | void,
      ) {
        const cacheKey = `${currency}|${range.from.getTime()}|${range.to.getTime()}`;
        let pending = executionsByRange.get(cacheKey);
        if (!pending) {
          pending = (async () => {
            const windows = windowsOf(range);
            const out = new Map<string, z.infer<typeof executionsResult>['list'][number]>();
            for (const [i, window] of windows.entries()) {
              for (const e of await pages('/v5/execution/list', executionsResult, {
                category: 'linear',
                settleCoin: currency,
                startTime: window.from,
                endTime: window.to,
              }))
                out.set(e.execId, e);
              await onRequest?.(i + 1, windows.length);
            }
            return [...out.values()];
          })();
          executionsByRange.set(cacheKey, pending);
        }
        return pending;
      }

      return {
        keyWarning,

        async listAccounts(): Promise<ExchangeAccount[]> {
          const body = read(walletResult, '/v5/account/wallet-balance', await request('/v5/account/wallet-balance', { accountType }, true));
          const coins = body.list.flatMap((l) => l.coin ?? []);
          return SETTLEMENT_CURRENCIES.map((currency) => {
            const found = coins.find((c) => c.coin === currency);
            return {
              externalId: currency,
              name: `${currency} perpetuals`,
              balance: found?.walletBalance ? new Decimal(found.walletBalance).toFixed(2) : null,
              canTrade: true,
              active: true,
              simulated: false,
              currency,
            };
          });
        },

        instruments,

        async fetchFills(currency, range, _knownSymbols, progress): Promise<ExchangeFills> {
          const notes: string[] = [];
          if (range.from.getTime() < Date.now() - BYBIT_HISTORY_DAYS * 86_400_000)
            notes.push('Bybit keeps two years of executions: older fills cannot be read through its API.');
          const all = await executions(currency, range, progress?.onRequest);
          // The closed P&L of each closing order, kept with its last fill for reference (trades are built from fills).
          const closed = new Map<string, string>();
          for (const window of windowsOf(range)) {
            for (const c of await pages('/v5/position/closed-pnl', closedPnlResult, {
              category: 'linear',
              startTime: window.from,
              endTime: window.to,
            })) {
              closed.set(c.orderId, new Decimal(closed.get(c.orderId) ?? 0).plus(c.closedPnl).toFixed());
            }
          }
          const fills = all.filter((e) => FILL_TYPES.has(e.execType)).flatMap((e) => toFills(e, currency));
          const lastOfOrder = new Map<string, ExchangeFill>();
          for (const fill of fills) if (fill.orderId && fill.closing) lastOfOrder.set(fill.orderId, fill);
          for (const [orderId, fill] of lastOfOrder) fill.realizedPnl = closed.get(orderId) ?? null;
          return { fills, notes };
        },

        async fetchFunding(currency, range): Promise<ExchangeFunding[]> {
          return (await executions(currency, range))
            .filter((e) => e.execType === 'Funding')
            .map((e) => ({
              id: e.execId,
              symbol: e.symbol,
              time: new Date(Number(e.execTime)).toISOString(),
              // A funding execution's fee is what the position paid: received funding is a negative fee.
              amount: new Decimal(e.execFee).negated().toFixed(),
              asset: e.feeCurrency || currency,
              // Its side is the position's: Buy for a long, Sell for a short.
              positionSide: e.side === 'Buy' ? 'LONG' : 'SHORT',
            }));
        },

        async fetchBars(symbol, range): Promise<BrokerBar[]> {
          const out = new Map<number, BrokerBar>();
          const last = range.to.getTime();
          for (let from = range.from.getTime(); from <= last;) {
            const to = Math.min(from + (KLINE_LIMIT - 1) * 60_000, last);
            const body = read(
              klineResult,
              '/v5/market/kline',
              await request('/v5/market/kline', { category: 'linear', symbol, interval: '1', start: from, end: to, limit: KLINE_LIMIT }, false),
            );
            for (const [start, open, high, low, close, volume] of body.list) {
              const ms = Number(start);
              if (ms >= from && ms <= to) out.set(ms, { start: new Date(ms).toISOString(), open, high, low, close, volume });
            }
            from = to + 60_000;
          }
          return [...out.entries()].sort(([a], [b]) => a - b).map(([, bar]) => bar);
        },
      };
    },
  };
}

/**
 * An execution as the position sides it moved. Bybit says how much of it closed (closedSize): none opens on its own
 * side (a buy opens or adds to a long), all of it closes the other side; part of it, in one-way mode, closes the
 * position and opens the other side with the rest (two fills here, the fee shared in proportion).
 */
function toFills(e: z.infer<typeof executionsResult>['list'][number], currency: SettlementCurrency): ExchangeFill[] {
  const quantity = new Decimal(e.execQty);
  const closed = e.closedSize === null ? new Decimal(0) : Decimal.min(new Decimal(e.closedSize), quantity);
  const opens = e.side === 'Buy' ? 'LONG' : 'SHORT';
  const closes = e.side === 'Buy' ? 'SHORT' : 'LONG';
  const base = {
    symbol: e.symbol,
    time: new Date(Number(e.execTime)).toISOString(),
    order: String(e.seq ?? e.execTime),
    side: e.side,
    price: e.execPrice,
    feeAsset: e.feeCurrency || currency,
    realizedPnl: null,
    orderId: e.orderId ?? null,
  };
  const fee = new Decimal(e.execFee);
  if (closed.isZero()) return [{ ...base, id: e.execId, quantity: quantity.toFixed(), fee: fee.toFixed(), positionSide: opens, closing: false }];
  if (closed.eq(quantity)) return [{ ...base, id: e.execId, quantity: quantity.toFixed(), fee: fee.toFixed(), positionSide: closes, closing: true }];
  const closeFee = fee.times(closed).dividedBy(quantity);
  return [
    { ...base, id: `${e.execId}:close`, quantity: closed.toFixed(), fee: closeFee.toFixed(), positionSide: closes, closing: true },
    {
      ...base,
      id: `${e.execId}:open`,
      quantity: quantity.minus(closed).toFixed(),
      fee: fee.minus(closeFee).toFixed(),
      positionSide: opens,
      closing: false,
    },
  ];
}
