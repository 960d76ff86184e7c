import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBybitConnector } from '../../src/server/connectors/bybit';
import { bybitFunding, bybitRoundTrip, startBybitServer, type BybitStandIn } from '../support/bybit-server';

/**
 * The Bybit v5 connector against the stand-in written from Bybit's documentation: the signature and its clock (2 s
 * ahead is refused as Bybit refuses it), executions and closed P&L in 7-day windows paged by cursor, a one-way reversal
 * split between the two sides, funding executions, the key's permissions, the per-second limit and its reset, errors.
 */
const KEY = 'XXXXXXXXXXbybitKey01';
const SECRET = 'bybit-secret-0123456789abcdefghijklmnopqr';
const DAY = 86_400_000;

describe('the Bybit v5 connector', () => {
  let bb: BybitStandIn;
  const connector = () => createBybitConnector({ baseUrl: bb.url, timeoutMs: 2000, retryBaseMs: 20 });
  const creds = { kind: 'key-secret' as const, apiKey: KEY, apiSecret: SECRET };

  beforeAll(async () => {
    bb = await startBybitServer({
      keys: [
        { apiKey: KEY, apiSecret: SECRET, uid: 'u1' },
        { apiKey: 'withdraw-key', apiSecret: 'withdraw-secret', uid: 'u1', wallet: ['AccountTransfer', 'Withdraw'] },
        { apiKey: 'trade-key', apiSecret: 'trade-secret', uid: 'u1', readOnly: 0 },
        { apiKey: 'office-key', apiSecret: 'office-secret', uid: 'u1', trustedIps: ['198.51.100.4'] },
      ],
    });
    bb.wallets.push({ uid: 'u1', coin: 'USDT', walletBalance: '812.3456' });
  });
  afterEach(() => {
    bb.clockOffsetMs = 0;
    bb.perSecond = 50;
  });
  afterAll(async () => bb?.close());

  async function raw(path: string, query: string, secret = SECRET, timestamp = Date.now()) {
    const sign = crypto.createHmac('sha256', secret).update(`${timestamp}${KEY}5000${query}`).digest('hex');
    const res = await fetch(`${bb.url}${path}?${query}`, {
      headers: { 'X-BAPI-API-KEY': KEY, 'X-BAPI-TIMESTAMP': String(timestamp), 'X-BAPI-RECV-WINDOW': '5000', 'X-BAPI-SIGN': sign },
    });
    return (await res.json()) as { retCode: number; retMsg: string };
  }

  it('refuses as Bybit does a wrong signature and a clock 2 s ahead; the connector reads the clock and passes', async () => {
    expect((await raw('/v5/user/query-api', '', 'wrong-secret')).retCode).toBe(10004);
    expect((await raw('/v5/user/query-api', '', SECRET, Date.now() + 2000)).retCode).toBe(10002);
    expect((await raw('/v5/user/query-api', '')).retCode).toBe(0);
    const first = bb.calls.length;
    for (const offset of [-2000, 9000]) {
      bb.clockOffsetMs = offset;
      const session = await connector().connect(creds);
      expect((await session.listAccounts()).map((a) => [a.externalId, a.balance])).toEqual([
        ['USDT', '812.35'],
        ['USDC', null],
      ]);
    }
    expect(bb.calls.slice(first).filter((c) => c.retCode === 10002)).toEqual([]);
  });

  it('refuses a key that may withdraw, warns of one that may trade, and says why a key is refused', async () => {
    await expect(connector().connect({ ...creds, apiKey: 'withdraw-key', apiSecret: 'withdraw-secret' })).rejects.toMatchObject({
      kind: 'credentials',
      message: expect.stringContaining('may withdraw funds, so Edgebook refuses it'),
    });
    expect((await connector().connect({ ...creds, apiKey: 'trade-key', apiSecret: 'trade-secret' })).keyWarning).toContain('it is not Read-Only');
    await expect(connector().connect({ ...creds, apiSecret: 'nope' })).rejects.toMatchObject({
      kind: 'credentials',
      message: expect.stringContaining('the secret does not belong to this API key'),
    });
    await expect(connector().connect({ ...creds, apiKey: 'who' })).rejects.toMatchObject({
      kind: 'credentials',
      message: expect.stringContaining('Bybit refused this API key'),
    });
    await expect(connector().connect({ ...creds, apiKey: 'office-key', apiSecret: 'office-secret' })).rejects.toMatchObject({
      kind: 'credentials',
      message: expect.stringContaining("this server's IP address is not among the key's trusted IPs"),
    });
  });

  it('reads executions in 7-day windows page by page, splits a one-way reversal between the sides, and funding with its side', async () => {
    const start = bb.now() - 20 * DAY;
    // 230 executions in one window: three pages of 100.
    for (let i = 0; i < 115; i++) {
      const trip = bybitRoundTrip('u1', 'SOLUSDT', {
        side: 'Long',
        entries: [['1', '150', start + i * 120_000]],
        exits: [['1', '151', start + i * 120_000 + 60_000]],
      });
      bb.executions.push(...trip.executions);
      bb.closedPnl.push(...trip.closedPnl);
    }
    // A reversal: long 1 BTC, then one sell of 3 closes it and opens a short of 2.
    const opening = bybitRoundTrip('u1', 'BTCUSDT', { side: 'Long', entries: [['1', '60000', start + 10 * DAY]], exits: [] });
    const reversal = bybitRoundTrip('u1', 'BTCUSDT', { side: 'Short', entries: [['3', '60500', start + 10 * DAY + 3_600_000]], exits: [] });
    reversal.executions[0]!.closedSize = '1';
    bb.executions.push(...opening.executions, ...reversal.executions, bybitFunding('u1', 'BTCUSDT', 'Sell', '-0.42', start + 10 * DAY + 7_200_000));
    const session = await connector().connect(creds);
    const read = await session.fetchFills('USDT', { from: new Date(start), to: new Date(bb.now()) }, []);
    expect(read.fills.filter((f) => f.symbol === 'SOLUSDT')).toHaveLength(230);
    const btc = read.fills.filter((f) => f.symbol === 'BTCUSDT').sort((a, b) => a.time.localeCompare(b.time) || a.id.localeCompare(b.id));
    expect(btc.map((f) => [f.side, f.quantity, f.positionSide, f.closing, f.fee])).toEqual([
      ['Buy', '1', 'LONG', false, '33'],
      ['Sell', '1', 'LONG', true, '33.275'],
      ['Sell', '2', 'SHORT', false, '66.55'],
    ]);
    // The closed P&L of each closing order is kept with its last fill.
    expect(read.fills.find((f) => f.symbol === 'SOLUSDT' && f.closing)!.realizedPnl).toMatch(/^0\.83/);
    const lists = bb.calls.filter((c) => c.path === '/v5/execution/list' && c.retCode === 0);
    for (const call of lists) expect(Number(call.params.endTime) - Number(call.params.startTime)).toBeLessThanOrEqual(7 * DAY);
    expect(lists.filter((c) => c.params.cursor)).toHaveLength(2);
    expect(await session.fetchFunding('USDT', { from: new Date(start), to: new Date(bb.now()) })).toEqual([
      expect.objectContaining({ symbol: 'BTCUSDT', amount: '0.42', asset: 'USDT', positionSide: 'SHORT' }),
    ]);
  });

  it("waits for the reset Bybit gives when a second's requests are spent, and says so when it cannot", async () => {
    const session = await connector().connect(creds);
    await new Promise((r) => setTimeout(r, 1100));
    bb.perSecond = 2;
    // Two wallet reads spend the second (Bybit says none remains, and when it resets): the third waits for the reset
    // rather than be refused.
    const first = bb.calls.length;
    for (let i = 0; i < 3; i++) await session.listAccounts();
    expect(bb.calls.slice(first).map((c) => c.retCode)).toEqual([0, 0, 0]);
    const [, second, third] = bb.calls.slice(first);
    expect(third!.at - second!.at).toBeGreaterThanOrEqual(900);
    bb.refuse('/v5/account/wallet-balance', 10003, 'API key is invalid.');
    await expect(session.listAccounts()).rejects.toMatchObject({ kind: 'credentials' });
    bb.fail('/v5/account/wallet-balance', 403);
    await expect(session.listAccounts()).rejects.toMatchObject({ kind: 'rate-limited', message: expect.stringContaining('HTTP 403') });
  });
});
