import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scheduledCommission } from '../../src/domain/importers';
import { centsToDecimalString } from '../../src/domain/money';
import { parseInWorker } from '../../src/server/core/parse/parse-pool';
import type { ImportChunk } from '../../src/server/core/parse/plan';
import { tradovateOrdersCsv } from '../support/broker-files';

/**
 * The import's speed: the parse worker sends each INSERT chunk as soon as it is built, so the request
 * inserts one while the next is made. What arrives must still be the whole import: every trade once, in the file's
 * entry order, each chunk no larger than asked, priced by the account's fee schedule, all before the answer.
 */
describe('an import’s chunks', () => {
  it('arrive one by one before the outcome, and together hold every trade once, priced by the schedule', async () => {
    // The worker reads an upload from the file the route wrote it to.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-stream-'));
    const file = path.join(folder, 'orders.csv');
    fs.writeFileSync(file, tradovateOrdersCsv(600));
    const job = await parseInWorker({ path: file, size: fs.statSync(file).size }, { timeZone: 'America/New_York' });
    fs.rmSync(folder, { recursive: true, force: true });
    try {
      const summary = job.summary;
      if (!summary.ok) throw new Error(summary.message);
      expect(summary.costsInFile).toBe(false);
      expect(summary.fileAccounts).toHaveLength(1);
      const schedule = { micro: '0.50', mini: '2.00', roots: { NQ: '1.75' } };
      const events: Array<ImportChunk | 'outcome'> = [];
      const done = await job
        .import(
          { targets: { [summary.fileAccounts[0]!]: 'acct-1' }, schedules: { 'acct-1': schedule }, knownKeys: {}, stored: {} },
          'user-1',
          50,
          (chunk) => events.push(chunk),
        )
        .then((outcome) => {
          events.push('outcome');
          return outcome;
        });

      expect(events.at(-1)).toBe('outcome');
      const chunks = events.slice(0, -1) as ImportChunk[];
      expect(chunks.length).toBe(Math.ceil(summary.tradeCount / 50));
      const records = chunks.flatMap((chunk) => {
        expect(chunk.accountId).toBe('acct-1');
        const rows = JSON.parse(chunk.json) as Array<Record<string, string | null>>;
        expect(rows.length).toBeLessThanOrEqual(50);
        return rows;
      });
      expect(records.map((r) => r.import_key)).toEqual(summary.keys);
      expect(done).toEqual({ accounts: [{ accountId: 'acct-1', trades: summary.tradeCount, byContent: 0 }], unmapped: [], skipped: 0 });
      for (const r of records) {
        expect(r).toMatchObject({ user_id: 'user-1', account_id: 'acct-1', commission_source: 'schedule' });
        const commission = scheduledCommission(schedule, r.contract!, r.quantity!)!;
        expect(r.commission).toBe(centsToDecimalString(commission));
        expect(r.pnl).toBe(centsToDecimalString(Math.round(Number(r.gross_pnl) * 100) - commission));
        expect(r.status).toBe(Number(r.pnl) > 0 ? 'Win' : Number(r.pnl) < 0 ? 'Loss' : 'BE');
      }
      // Both a micro and a mini contract were priced (the file mixes them).
      expect(new Set(records.map((r) => r.commission)).size).toBeGreaterThan(1);
    } finally {
      job.release();
    }
  });
});
