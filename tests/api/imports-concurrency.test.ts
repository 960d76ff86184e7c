import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type TestApp } from '../support/app';
import { tradovateExports } from '../support/broker-files';
import { importFile } from './imports-support';
import { createAccount, listAll, newTrader } from './trades-support';

/**
 * The Orders export and the Performance export of the same fills, imported at the same moment,
 * stored every trade twice on PostgreSQL; one after the other, the second added nothing (the two-export rule, issue
 * 12 point 6). The rule must hold however the requests interleave, and so must the backup restore's.
 */

// 278 fills of the made-up Tradovate account: exactly 100 round trips, none left open, in either export.
const { orders, performance } = tradovateExports(278);
const TRADES = 100;
const options = (accountId: string) => ({ account_id: accountId, time_zone: 'America/New_York' });

describe.each(backends())('imports at the same moment on %s', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  it('stores the trades of two exports of the same fills once', async () => {
    const trader = await newTrader(app);
    for (let round = 0; round < 3; round++) {
      const account = await createAccount(trader, `Combine ${round}`);
      const [a, b] = await Promise.all([importFile(trader, options(account.id), orders), importFile(trader, options(account.id), performance)]);
      expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([200, 200]);
      expect(a.body.total_trades).toBe(TRADES);
      expect(b.body.total_trades).toBe(TRADES);
      // Whichever came second found the other's trades: together one import's worth, the rest duplicates.
      expect(a.body.imported + b.body.imported, `round ${round}`).toBe(TRADES);
      expect(a.body.duplicates + b.body.duplicates, `round ${round}`).toBe(TRADES);
      expect(await listAll(trader, `account=${account.id}`), `round ${round}`).toHaveLength(TRADES);
    }
  });

  it('restores one backup sent twice at once into an account once', async () => {
    const trader = await newTrader(app);
    const source = await createAccount(trader, 'Source');
    expect((await importFile(trader, options(source.id), orders)).status).toBe(200);
    const backup = (await trader.get('/api/trades/export')).body;
    const trades = Array.isArray(backup) ? backup : backup.trades;
    expect(trades).toHaveLength(TRADES);
    for (let round = 0; round < 3; round++) {
      const account = await createAccount(trader, `Restore ${round}`);
      const body = { account_id: account.id, trades };
      const [a, b] = await Promise.all([trader.post('/api/trades/import', body), trader.post('/api/trades/import', body)]);
      expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([201, 201]);
      expect(a.body.imported + b.body.imported, `round ${round}`).toBe(TRADES);
      expect(await listAll(trader, `account=${account.id}`), `round ${round}`).toHaveLength(TRADES);
    }
  });
});
