import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectXConnector, forgetProjectXSessions } from '../../src/server/connectors/projectx';
import { ConnectorError } from '../../src/server/connectors/types';
import { halfTurns, startProjectXServer, STAND_IN_CONTRACTS, type ProjectXStandIn, type StandInBar } from '../support/projectx-server';

/**
 * The ProjectX connector itself against the stand-in gateway: the documented shapes it must read (both
 * ways the documentation and the gateway's schema write searchById), the login error codes in the trader's words,
 * bars newest-first and past the 20,000-bar limit, and what it asks for.
 */
describe('the ProjectX Gateway connector', () => {
  let px: ProjectXStandIn;
  const connector = () => createProjectXConnector({ baseUrl: px.url, label: 'TopstepX', timeoutMs: 2000, retryBaseMs: 50 });
  const [MNQ] = STAND_IN_CONTRACTS;

  beforeAll(async () => {
    px = await startProjectXServer({
      users: [
        { userName: 'reader.px', apiKey: 'reader-key' },
        { userName: 'nosub.px', apiKey: 'nosub-key', refuse: 9 },
        { userName: 'disabled.px', apiKey: 'disabled-key', refuse: 10 },
      ],
    });
    px.accounts = [
      { id: 11, name: 'COMBINE-11', balance: 50_000.5, canTrade: true, isVisible: true, simulated: true, active: true, userName: 'reader.px' },
      { id: 12, name: 'OLD-12', balance: 0, canTrade: false, isVisible: true, simulated: true, active: false, userName: 'reader.px' },
    ];
  });
  afterAll(async () => {
    forgetProjectXSessions();
    await px?.close();
  });

  it('reads accounts active and not, and fills of a time window with their side, fees and P&L as the docs write them', async () => {
    const session = await connector().connect({ userName: 'reader.px', apiKey: 'reader-key' });
    expect(await session.listAccounts()).toEqual([
      { externalId: '11', name: 'COMBINE-11', balance: '50000.5', canTrade: true, active: true, simulated: true },
      { externalId: '12', name: 'OLD-12', balance: '0', canTrade: false, active: false, simulated: true },
    ]);
    px.trades = halfTurns(
      11,
      MNQ!,
      [
        { side: 'Buy', size: 2, price: 20000.25, at: '2025-01-21T16:13:04.142302+00:00', fees: 0.74 },
        { side: 'Sell', size: 2, price: 20004.5, at: '2025-01-21T16:13:52.523293+00:00', fees: 0.74, pnl: 17 },
        { side: 'Buy', size: 1, price: 20010, at: '2025-01-23T10:00:00+00:00' },
      ],
      8603,
    );
    const fills = await session.fetchFills('11', { from: new Date('2025-01-21T00:00:00Z'), to: new Date('2025-01-22T00:00:00Z') });
    expect(fills.sort((a, b) => a.time.localeCompare(b.time))).toEqual([
      {
        externalId: '8603',
        contractId: 'CON.F.US.MNQ.M25',
        time: '2025-01-21T16:13:04.142Z',
        side: 'Buy',
        quantity: '2',
        price: '20000.25',
        fees: '0.74',
        pnl: null,
        orderId: '58603',
        voided: false,
      },
      {
        externalId: '8604',
        contractId: 'CON.F.US.MNQ.M25',
        time: '2025-01-21T16:13:52.523Z',
        side: 'Sell',
        quantity: '2',
        price: '20004.5',
        fees: '0.74',
        pnl: '17',
        orderId: '58604',
        voided: false,
      },
    ]);
    const search = px.calls.filter((c) => c.endpoint === 'Trade/search').at(-1)!;
    expect(search.body).toEqual({ accountId: 11, startTimestamp: '2025-01-21T00:00:00.000Z', endTimestamp: '2025-01-22T00:00:00.000Z' });
    expect(search.token).toBeTruthy();
    // An account the gateway does not know.
    await expect(session.fetchFills('99', { from: new Date('2025-01-21T00:00:00Z'), to: new Date('2025-01-22T00:00:00Z') })).rejects.toMatchObject({
      kind: 'not-found',
    });
  });

  it("reads a contract whether searchById answers `contracts` (the docs' example) or `contract` (the schema)", async () => {
    const session = await connector().connect({ userName: 'reader.px', apiKey: 'reader-key' });
    expect(await session.contract('CON.F.US.ENQ.M25')).toEqual({
      id: 'CON.F.US.ENQ.M25',
      name: 'ENQM25',
      description: 'E-mini NASDAQ-100: June 2025',
      tickSize: '0.25',
      tickValue: '5',
    });
    expect(await session.contract('CON.F.US.NOPE.M25')).toBeNull();
    const other = await startProjectXServer({ users: [{ userName: 'reader.px', apiKey: 'reader-key' }], contractShape: 'contract' });
    try {
      const schema = await createProjectXConnector({ baseUrl: other.url, label: 'TopstepX', timeoutMs: 2000 }).connect({
        userName: 'reader.px',
        apiKey: 'reader-key',
      });
      expect((await schema.contract('CON.F.US.MGC.M25'))?.tickValue).toBe('1');
      expect(await schema.findContract('MESM5')).toMatchObject({ id: 'CON.F.US.MES.M25', tickValue: '1.25' });
    } finally {
      await other.close();
    }
  });

  it("finds a journal's contract by the gateway's own name for it, in one search by the gateway's root", async () => {
    const session = await connector().connect({ userName: 'reader.px', apiKey: 'reader-key' });
    const searches = () => px.calls.filter((c) => c.endpoint === 'Contract/search');
    const before = searches().length;
    // The docs name the E-mini Nasdaq ENQH25 and the E-mini S&P EP: a search for 'NQ' or 'ES' does not find them as NQM5 or ESM5.
    expect(await session.findContract('NQM5')).toMatchObject({ id: 'CON.F.US.ENQ.M25', name: 'ENQM25', tickValue: '5' });
    expect(await session.findContract('ESM5')).toMatchObject({ id: 'CON.F.US.EP.M25', name: 'EPM25', tickValue: '12.5' });
    expect(await session.findContract('MNQM5')).toMatchObject({ id: 'CON.F.US.MNQ.M25' });
    // Another month of a contract the gateway lists is not that contract.
    expect(await session.findContract('MNQU5')).toBeNull();
    expect(
      searches()
        .slice(before)
        .map((c) => c.body),
    ).toEqual([
      { searchText: 'ENQ', live: false },
      { searchText: 'EP', live: false },
      { searchText: 'MNQ', live: false },
      { searchText: 'MNQ', live: false },
    ]);
  });

  it('gives one-minute bars oldest first, asking in windows of at most 20,000 bars', async () => {
    const start = Date.parse('2025-03-03T00:00:00Z');
    const bars: StandInBar[] = [];
    for (let i = 0; i < 30_000; i += 1)
      bars.push({ t: new Date(start + i * 60_000).toISOString(), o: 100 + i, h: 101 + i, l: 99 + i, c: 100.5 + i, v: i });
    px.bars.set('CON.F.US.MNQ.M25', bars);
    const session = await connector().connect({ userName: 'reader.px', apiKey: 'reader-key' });
    const before = px.count('History/retrieveBars');
    const got = await session.fetchBars('CON.F.US.MNQ.M25', { from: new Date(start), to: new Date(start + 29_999 * 60_000) });
    expect(px.count('History/retrieveBars') - before).toBe(2);
    expect(got).toHaveLength(30_000);
    expect(got[0]).toEqual({ start: '2025-03-03T00:00:00.000Z', open: '100', high: '101', low: '99', close: '100.5', volume: '0' });
    expect(got.at(-1)!.start).toBe(new Date(start + 29_999 * 60_000).toISOString());
    const asked = px.calls.filter((c) => c.endpoint === 'History/retrieveBars').at(-1)!.body;
    expect(asked).toMatchObject({ contractId: 'CON.F.US.MNQ.M25', live: false, unit: 2, unitNumber: 1, limit: 20_000, includePartialBar: false });
  });

  it('a 429 without Retry-After (the documentation gives none) waits doubling pauses from a second, not a burst of retries', async () => {
    const session = await createProjectXConnector({ baseUrl: px.url, label: 'TopstepX', timeoutMs: 2000 }).connect({
      userName: 'reader.px',
      apiKey: 'reader-key',
    });
    px.fail('Trade/search', 429, 2);
    const mark = px.calls.length;
    await session.fetchFills('11', { from: new Date('2025-01-21T00:00:00Z'), to: new Date('2025-01-22T00:00:00Z') });
    const searches = px.calls.slice(mark).filter((c) => c.endpoint === 'Trade/search');
    expect(searches.map((c) => c.status)).toEqual([429, 429, 200]);
    const pauses = [searches[1]!.at - searches[0]!.at, searches[2]!.at - searches[1]!.at];
    // 1 s then 2 s, each with up to a quarter more at random.
    expect(pauses[0]).toBeGreaterThanOrEqual(990);
    expect(pauses[0]).toBeLessThan(1_800);
    expect(pauses[1]).toBeGreaterThanOrEqual(1_990);
    expect(pauses[1]).toBeLessThan(3_200);
  });

  it("reads an account's orders of a window (a bracket's stop with its price) and its open positions as the docs write them", async () => {
    px.orders = [
      {
        id: 26060,
        accountId: 11,
        contractId: MNQ!.id,
        creationTimestamp: '2025-04-14T17:49:10.142532+00:00',
        updateTimestamp: null,
        status: 2,
        type: 2,
        side: 0,
        size: 2,
        limitPrice: null,
        stopPrice: null,
        fillVolume: 2,
        filledPrice: 19880.25,
        customTag: null,
      },
      {
        id: 26061,
        accountId: 11,
        contractId: MNQ!.id,
        creationTimestamp: '2025-04-14T17:49:10.150000+00:00',
        updateTimestamp: '2025-04-14T17:52:00+00:00',
        status: 3,
        type: 4,
        side: 1,
        size: 2,
        limitPrice: null,
        stopPrice: 19860.5,
        fillVolume: 0,
        filledPrice: null,
        customTag: null,
      },
      {
        id: 26070,
        accountId: 11,
        contractId: MNQ!.id,
        creationTimestamp: '2025-04-15T09:00:00+00:00',
        updateTimestamp: null,
        status: 1,
        type: 1,
        side: 1,
        size: 1,
        limitPrice: 19999,
        stopPrice: null,
        fillVolume: 0,
        filledPrice: null,
        customTag: null,
      },
    ];
    px.positions = [
      {
        id: 5,
        accountId: 11,
        contractId: MNQ!.id,
        creationTimestamp: '2025-04-15T13:31:07.5+00:00',
        type: 2,
        size: 3,
        averagePrice: 19901.333333333,
      },
    ];
    const session = await connector().connect({ userName: 'reader.px', apiKey: 'reader-key' });
    expect(await session.fetchOrders('11', { from: new Date('2025-04-14T00:00:00Z'), to: new Date('2025-04-15T00:00:00Z') })).toEqual([
      {
        externalId: '26060',
        contractId: MNQ!.id,
        createdAt: '2025-04-14T17:49:10.142Z',
        type: 'market',
        side: 'Buy',
        size: '2',
        stopPrice: null,
        limitPrice: null,
        status: 'filled',
      },
      {
        externalId: '26061',
        contractId: MNQ!.id,
        createdAt: '2025-04-14T17:49:10.150Z',
        type: 'stop',
        side: 'Sell',
        size: '2',
        stopPrice: '19860.5',
        limitPrice: null,
        status: 'cancelled',
      },
    ]);
    expect(px.calls.filter((c) => c.endpoint === 'Order/search').at(-1)!.body).toEqual({
      accountId: 11,
      startTimestamp: '2025-04-14T00:00:00.000Z',
      endTimestamp: '2025-04-15T00:00:00.000Z',
    });
    expect(await session.openPositions('11')).toEqual([
      { contractId: MNQ!.id, side: 'Short', size: '3', averagePrice: '19901.333333333', since: '2025-04-15T13:31:07.500Z' },
    ]);
    await expect(session.openPositions('99')).rejects.toMatchObject({ kind: 'not-found' });
  });

  it("says each refused sign-in in the trader's words", async () => {
    const cases: Array<[string, string, string]> = [
      ['nobody.px', 'wrong-key', 'TopstepX refused this user name and API key. Check both in TopstepX (Settings, API), then connect again.'],
      ['reader.px', 'wrong-key', 'TopstepX refused this user name and API key. Check both in TopstepX (Settings, API), then connect again.'],
      [
        'nosub.px',
        'nosub-key',
        'This TopstepX user has no API access: API access is an add-on you subscribe to in TopstepX. Subscribe, then connect again.',
      ],
      ['disabled.px', 'disabled-key', 'API-key sign-in is turned off for this TopstepX user. Turn it on in TopstepX, then connect again.'],
    ];
    for (const [userName, apiKey, message] of cases) {
      const error = await connector()
        .connect({ userName, apiKey })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).kind).toBe('credentials');
      expect((error as ConnectorError).message).toBe(message);
      // The key is in no part of the error.
      expect(JSON.stringify({ ...(error as ConnectorError), message: (error as Error).message })).not.toContain(apiKey);
    }
  });
});
