import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHyperliquidConnector, forgetHyperliquidBudgets } from '../../src/server/connectors/hyperliquid';
import { hyperliquidFills, startHyperliquidServer, type HyperliquidStandIn } from '../support/hyperliquid-server';

/**
 * The Hyperliquid connector against the stand-in written from Hyperliquid's documentation: a wallet read without a
 * key, fills paged by time past the 2,000 an answer, a fill through zero split between the long and the short, funding
 * with the side its size says, spot fills left out, the weight budget, 429 and a malformed address in words.
 */
const WALLET = '0x31ca8395cf837de08b24da3f660e77761dfb974b';
const DAY = 86_400_000;

describe('the Hyperliquid connector', () => {
  let hl: HyperliquidStandIn;
  const connector = (weightPerMinute?: number) => createHyperliquidConnector({ baseUrl: hl.url, timeoutMs: 2000, retryBaseMs: 20, weightPerMinute });
  const creds = { kind: 'wallet' as const, address: WALLET };

  beforeAll(async () => {
    hl = await startHyperliquidServer();
    hl.accounts.set(WALLET, '10432.876543');
  });
  afterEach(() => forgetHyperliquidBudgets());
  afterAll(async () => hl?.close());

  it('reads a wallet without a key; a malformed address is refused in words', async () => {
    const session = await connector().connect(creds);
    expect(await session.listAccounts()).toEqual([
      { externalId: 'USDC', name: 'Perpetuals · USDC', balance: '10432.88', canTrade: true, active: true, simulated: false, currency: 'USDC' },
    ]);
    await expect(connector().connect({ kind: 'wallet', address: '0x1234' })).rejects.toMatchObject({
      kind: 'credentials',
      message: expect.stringContaining('does not know this wallet address'),
    });
  });

  it('pages fills by time past 2,000, splits a fill through zero, and reads funding with its side', async () => {
    const start = Date.now() - 10 * DAY;
    // 2,300 one-lot round trips of SOL, then a long of 1 ETH reversed into a short of 2 by one sell of 3.
    const sol: Array<[string, string, number]> = [];
    for (let i = 0; i < 1150; i++) sol.push(['1', '150', start + i * 60_000], ['-1', '151', start + i * 60_000 + 30_000]);
    hl.fills.push(...hyperliquidFills(WALLET, 'SOL', sol));
    hl.fills.push(
      ...hyperliquidFills(WALLET, 'ETH', [
        ['1', '3000', start + 2 * DAY],
        ['-3', '3050', start + 2 * DAY + 60_000],
        ['2', '3000', start + 2 * DAY + 120_000],
      ]),
    );
    // A spot fill is not a perpetual's.
    hl.fills.push({ ...hyperliquidFills(WALLET, 'PURR/USDC', [['10', '0.2', start + DAY]])[0]!, dir: 'Buy' });
    hl.funding.push({ user: WALLET, time: start + 2 * DAY + 90_000, coin: 'ETH', usdc: '-0.0421', szi: '-2.0', fundingRate: '0.0000125' });
    const session = await connector().connect(creds);
    const { fills } = await session.fetchFills('USDC', { from: new Date(start), to: new Date() }, []);
    expect(fills.filter((f) => f.symbol === 'SOL')).toHaveLength(2300);
    expect(fills.some((f) => f.symbol.includes('/'))).toBe(false);
    const eth = fills.filter((f) => f.symbol === 'ETH').sort((a, b) => a.time.localeCompare(b.time) || a.id.localeCompare(b.id));
    expect(eth.map((f) => [f.side, f.quantity, f.positionSide, f.closing, f.realizedPnl])).toEqual([
      ['Buy', '1', 'LONG', false, null],
      ['Sell', '1', 'LONG', true, '50'],
      ['Sell', '2', 'SHORT', false, null],
      ['Buy', '2', 'SHORT', true, '100'],
    ]);
    expect(hl.calls.filter((c) => c.type === 'userFillsByTime').length).toBe(2);
    expect(await session.fetchFunding('USDC', { from: new Date(start), to: new Date() })).toEqual([
      {
        id: `${start + 2 * DAY + 90_000}:ETH`,
        symbol: 'ETH',
        time: new Date(start + 2 * DAY + 90_000).toISOString(),
        amount: '-0.0421',
        asset: 'USDC',
        positionSide: 'SHORT',
      },
    ]);
  });

  it('waits within its weight budget rather than be refused, and stops at a 429 it cannot wait out', async () => {
    // A budget of 25: the account (2) and one meta (20) fit; the next meta waits for the minute to roll.
    const stop = new AbortController();
    const session = await connector(25).connect(creds, { signal: stop.signal });
    await session.instruments();
    const before = hl.calls.length;
    const fills = session.fetchFills('USDC', { from: new Date(Date.now() - DAY), to: new Date() }, []);
    await new Promise((r) => setTimeout(r, 300));
    expect(hl.calls.length).toBe(before);
    stop.abort();
    await expect(fills).rejects.toMatchObject({ kind: 'aborted' });

    hl.weightPerMinute = 0;
    await expect(connector().connect(creds, { attempts: 1 })).rejects.toMatchObject({ kind: 'rate-limited' });
    hl.weightPerMinute = 1200;
  });
});
