import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every write of trades goes through one door, the trades write module (src/server/core/trades/write.ts), which ends
 * each write with the same step (rollups, versions and change log once, MAE and MFE, the engine told). A second writer
 * would skip it: no file of the server but that module may insert, update or delete trades, their fills or their
 * ticked rules.
 */
const WRITE_MODULE = path.join('src', 'server', 'core', 'trades', 'write.ts');
const WRITES = [
  /\b(insert\s+into|update|delete\s+from)\s+(trades|trade_fills|trade_rule_checks)\b/i,
  /\.(insert|update|delete)\(\s*(trades|tradeFills|tradeRuleChecks)\s*\)/,
];

function serverFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : serverFiles(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

describe('the one write path of trades', () => {
  it('no file of the server but the write module writes trades, fills or ticks', () => {
    const offenders = serverFiles(path.join('src', 'server'))
      .filter((file) => file !== WRITE_MODULE)
      .flatMap((file) =>
        fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, i) => (WRITES.some((pattern) => pattern.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offenders).toEqual([]);
  });

  it('the check finds a write where it should not be', () => {
    const line = "await tx.update(trades).set({ pnl: '1' })";
    expect(WRITES.some((pattern) => pattern.test(line))).toBe(true);
    expect(WRITES.some((pattern) => pattern.test('insert into trade_fills (user_id) values ($1)'))).toBe(true);
    expect(WRITES.some((pattern) => pattern.test('select * from trades where id = $1'))).toBe(false);
  });
});
