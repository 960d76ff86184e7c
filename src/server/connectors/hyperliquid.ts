import { z } from 'zod';
import { Decimal } from '../../domain/money';
import { ConnectorError, type BrokerBar, type ConnectOptions } from './types';
import { exchangeFetch, exchangeMessages, LONGEST_WAIT_MS, retryAfterMs, sleep, type ExchangeHttpOptions } from './exchange-http';
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
 * Hyperliquid's perpetuals, read from its public info API by wallet address: a trader's fills and funding are public,
 * so no key is asked for and none is kept. Every request is a POST to /info with a JSON body naming its `type`:
 * clearinghouseState (the account's value), meta (the perpetuals and their size decimals), userFillsByTime (fills of a
 * time span, at most 2,000 an answer, of the 10,000 most recent), userFunding (funding payments, paged the same way) and
 * candleSnapshot (one-minute candles, at most 5,000 an answer).
 *
 * An IP may spend 1,200 weight a minute: 2 for clearinghouseState, 20 for the others, and the fills, funding and
 * candles 1 more per 20 (candles: 60) items they answer. Past it Hyperliquid answers HTTP 429. Edgebook keeps its own
 * count and waits rather than go over. Hyperliquid's perpetuals all settle in USDC.
 */

export interface HyperliquidOptions {
  baseUrl: string;
  timeoutMs: number;
  retryBaseMs?: number;
  /** Weight this server spends a minute at most (Hyperliquid allows 1,200). */
  weightPerMinute?: number;
}

const LABEL = 'Hyperliquid';
const FILLS_PAGE = 2000;
const FUNDING_PAGE = 500;
const CANDLES_PAGE = 5000;
export const HYPERLIQUID_FILLS_KEPT = 10_000;

const num = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/)]).transform((v) => new Decimal(v).toFixed());
const stateAnswer = z.looseObject({ marginSummary: z.looseObject({ accountValue: num }) });
const metaAnswer = z.looseObject({ universe: z.array(z.looseObject({ name: z.string(), szDecimals: z.number().int().nullish() })) });
const fillsAnswer = z.array(
  z.looseObject({
    coin: z.string(),
    px: num,
    sz: num,
    side: z.enum(['B', 'A']),
    time: z.number(),
    startPosition: num,
    dir: z.string(),
    closedPnl: num.nullish(),
    hash: z.string().nullish(),
    oid: z.union([z.number(), z.string()]).nullish(),
    fee: num,
    feeToken: z.string().nullish(),
    tid: z.union([z.number(), z.string()]),
  }),
);
const fundingAnswer = z.array(
  z.looseObject({
    time: z.number(),
    hash: z.string().nullish(),
    delta: z.looseObject({ type: z.string(), coin: z.string(), usdc: num, szi: num }),
  }),
);
const candlesAnswer = z.array(z.looseObject({ t: z.number(), o: num, h: num, l: num, c: num, v: num.nullish() }));

/** Per process and host: the weight spent in the last minute, as (time, weight). */
const spent = new Map<string, Array<[number, number]>>();

export function forgetHyperliquidBudgets() {
  spent.clear();
}

export function createHyperliquidConnector(options: HyperliquidOptions): ExchangeConnector {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const host = new URL(baseUrl).host;
  const http: ExchangeHttpOptions = { label: LABEL, timeoutMs: options.timeoutMs, retryBaseMs: options.retryBaseMs ?? 500 };
  const messages = exchangeMessages(http, host);
  const budget = options.weightPerMinute ?? 1000;

  async function take(weight: number, signal?: AbortSignal) {
    for (;;) {
      const now = Date.now();
      const recent = (spent.get(host) ?? []).filter(([at]) => at > now - 60_000);
      spent.set(host, recent);
      const used = recent.reduce((n, [, w]) => n + w, 0);
      if (used + weight <= budget || recent.length === 0) {
        recent.push([now, weight]);
        return;
      }
      await sleep(recent[0]![0] + 60_000 - now + 20, signal);
    }
  }

  /** What an answer of `items` costs beyond its request, as Hyperliquid counts it. */
  const extra = (items: number, per: number) => Math.floor(items / per);

  return {
    id: 'hyperliquid',
    label: LABEL,
    barSource: `hyperliquid:${host.toLowerCase()}`,
    venue: 'HYPERLIQUID',
    credential: 'wallet',
    // Hyperliquid keeps fills by count (the 10,000 most recent), not by age.
    historyDays: 3650,
    async connect(credentials: ExchangeCredentials, connectOptions: ConnectOptions = {}): Promise<ExchangeSession> {
      if (credentials.kind !== 'wallet') throw new Error('Hyperliquid connects with a wallet address');
      const user = credentials.address;
      const attempts = connectOptions.attempts ?? 4;
      const signal = connectOptions.signal;

      async function info(body: Record<string, unknown>, weight: number): Promise<unknown> {
        const endpoint = `/info (${String(body.type)})`;
        for (let tries = 0; ; tries++) {
          await take(weight, signal);
          const answer = await exchangeFetch(http, {
            method: 'POST',
            url: `${baseUrl}/info`,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
            endpoint,
            attempts,
            signal,
          });
          if (answer.status === 200) return answer.body;
          if (answer.status === 429) {
            const wait = retryAfterMs(answer.headers) ?? 5_000 * (tries + 1);
            if (tries + 1 < attempts && wait <= LONGEST_WAIT_MS) {
              await sleep(wait, signal);
              continue;
            }
            throw new ConnectorError('rate-limited', messages.rateLimited(wait), { endpoint, status: 429 });
          }
          if (answer.status === 422 || answer.status === 400) {
            throw new ConnectorError(
              'credentials',
              'Hyperliquid does not know this wallet address: check it is the address you trade with (0x and 40 hexadecimal digits).',
              {
                endpoint,
                status: answer.status,
              },
            );
          }
          throw new ConnectorError('unexpected', `Hyperliquid refused ${endpoint} (HTTP ${answer.status}).`, { endpoint, status: answer.status });
        }
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

      // The account, read now: a malformed address is found by "Test connection", not by the first sync.
      const state = read(stateAnswer, 'clearinghouseState', await info({ type: 'clearinghouseState', user }, 2));

      let described: Map<string, ExchangeInstrument> | undefined;

      return {
        keyWarning: null,

        async listAccounts(): Promise<ExchangeAccount[]> {
          return [
            {
              externalId: 'USDC',
              name: 'Perpetuals · USDC',
              balance: new Decimal(state.marginSummary.accountValue).toFixed(2),
              canTrade: true,
              active: true,
              simulated: false,
              currency: 'USDC',
            },
          ];
        },

        async instruments(): Promise<ReadonlyMap<string, ExchangeInstrument>> {
          if (described) return described;
          const meta = read(metaAnswer, 'meta', await info({ type: 'meta' }, 20));
          described = new Map(
            meta.universe.map((u) => [
              u.name,
              { symbol: u.name, base: u.name, settle: 'USDC' as const, kind: 'perpetual' as const, quantityDecimals: u.szDecimals ?? null },
            ]),
          );
          return described;
        },

        async fetchFills(currency, range, _known, progress): Promise<ExchangeFills> {
          const notes: string[] = [];
          if (currency !== 'USDC') return { fills: [], notes };
          const out = new Map<string, ExchangeFill>();
          let start = range.from.getTime();
          let requests = 0;
          let read_ = 0;
          for (;;) {
            const page = read(
              fillsAnswer,
              'userFillsByTime',
              await info({ type: 'userFillsByTime', user, startTime: start, endTime: range.to.getTime(), aggregateByTime: false }, 20),
            );
            requests += 1;
            read_ += page.length;
            await take(extra(page.length, 20), signal);
            for (const f of page) for (const fill of toFills(f)) out.set(fill.id, fill);
            await progress?.onRequest?.(requests, requests + (page.length >= FILLS_PAGE ? 1 : 0));
            if (page.length < FILLS_PAGE) break;
            const last = Math.max(...page.map((f) => f.time));
            // Fills of the last millisecond are read again; their ids keep them once.
            start = last > start ? last : last + 1;
          }
          if (read_ >= HYPERLIQUID_FILLS_KEPT)
            notes.push('Hyperliquid gives only the 10,000 most recent fills of a wallet: older ones cannot be read through its API.');
          return { fills: [...out.values()], notes };
        },

        async fetchFunding(currency, range): Promise<ExchangeFunding[]> {
          if (currency !== 'USDC') return [];
          const out = new Map<string, ExchangeFunding>();
          let start = range.from.getTime();
          for (;;) {
            const page = read(
              fundingAnswer,
              'userFunding',
              await info({ type: 'userFunding', user, startTime: start, endTime: range.to.getTime() }, 20),
            );
            await take(extra(page.length, 20), signal);
            for (const p of page) {
              if (p.delta.type !== 'funding') continue;
              const id = `${p.time}:${p.delta.coin}`;
              out.set(id, {
                id,
                symbol: p.delta.coin,
                time: new Date(p.time).toISOString(),
                amount: p.delta.usdc,
                asset: 'USDC',
                // szi is the position's signed size when it was paid: long above zero.
                positionSide: new Decimal(p.delta.szi).isNegative() ? 'SHORT' : 'LONG',
              });
            }
            if (page.length < FUNDING_PAGE) break;
            const last = Math.max(...page.map((p) => p.time));
            start = last > start ? last : last + 1;
          }
          return [...out.values()];
        },

        async fetchBars(symbol, range): Promise<BrokerBar[]> {
          const out = new Map<number, BrokerBar>();
          const last = range.to.getTime();
          for (let from = range.from.getTime(); from <= last;) {
            const to = Math.min(from + (CANDLES_PAGE - 1) * 60_000, last);
            const candles = read(
              candlesAnswer,
              'candleSnapshot',
              await info({ type: 'candleSnapshot', req: { coin: symbol, interval: '1m', startTime: from, endTime: to } }, 20),
            );
            await take(extra(candles.length, 60), signal);
            for (const c of candles)
              if (c.t >= from && c.t <= to)
                out.set(c.t, { start: new Date(c.t).toISOString(), open: c.o, high: c.h, low: c.l, close: c.c, volume: c.v ?? null });
            from = to + 60_000;
          }
          return [...out.entries()].sort(([a], [b]) => a - b).map(([, bar]) => bar);
        },
      };
    },
  };
}

/**
 * A fill as the position sides it moved: Hyperliquid gives the position before it (startPosition, signed), so a fill
 * that takes a long through zero into a short ("Long > Short") is a close of the long and an open of the short (two
 * fills here, the fee shared in proportion). Spot fills (a coin like @107 or PURR/USDC) are not perpetuals: left out.
 */
function toFills(f: z.infer<typeof fillsAnswer>[number]): ExchangeFill[] {
  if (f.coin.startsWith('@') || f.coin.includes('/')) return [];
  const size = new Decimal(f.sz);
  const start = new Decimal(f.startPosition);
  const end = f.side === 'B' ? start.plus(size) : start.minus(size);
  const base = {
    symbol: f.coin,
    time: new Date(f.time).toISOString(),
    order: String(f.tid),
    side: f.side === 'B' ? ('Buy' as const) : ('Sell' as const),
    price: f.px,
    feeAsset: f.feeToken || 'USDC',
    orderId: f.oid === null || f.oid === undefined ? null : String(f.oid),
  };
  const fee = new Decimal(f.fee);
  const id = String(f.tid);
  const realized = f.closedPnl ?? null;
  const sideOf = (position: Decimal) => (position.isNegative() ? 'SHORT' : 'LONG') as 'LONG' | 'SHORT';
  // Within one side: opening when the position grows away from zero.
  if (!start.isNegative() === !end.isNegative() || start.isZero() || end.isZero()) {
    const book = start.isZero() ? sideOf(end) : sideOf(start);
    const closing = end.abs().lt(start.abs());
    return [{ ...base, id, quantity: size.toFixed(), fee: fee.toFixed(), positionSide: book, closing, realizedPnl: closing ? realized : null }];
  }
  const closed = start.abs();
  const closeFee = fee.times(closed).dividedBy(size);
  return [
    {
      ...base,
      id: `${id}:close`,
      quantity: closed.toFixed(),
      fee: closeFee.toFixed(),
      positionSide: sideOf(start),
      closing: true,
      realizedPnl: realized,
    },
    {
      ...base,
      id: `${id}:open`,
      quantity: end.abs().toFixed(),
      fee: fee.minus(closeFee).toFixed(),
      positionSide: sideOf(end),
      closing: false,
      realizedPnl: null,
    },
  ];
}
