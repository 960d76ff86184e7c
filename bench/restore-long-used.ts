import { backupRows } from '../tests/support/backup-file';
import { measureRestore, USE_CYCLES } from './suites/big-files';

/**
 * The big-files suite's restore on a new and on a used server, run alone (`npx tsx bench/restore-long-used.ts`):
 * ROUNDS pairs, each a new server then a used one back to back, so that the shared machine's load falls on both alike.
 * Prints one line of JSON a restore (another trader's longest wait, their waits over 1 s added up, the restore's
 * time) and the used/new ratio of the longest waits of each pair. BENCH_FROM_SOURCE=1 runs the server's sources.
 */
const trades = backupRows(30_000);
const rounds = Number(process.env.ROUNDS ?? 1);
for (let round = 0; round < rounds; round++) {
  const fresh = await measureRestore(false, trades);
  console.log(JSON.stringify({ round, server: 'new', ...fresh }));
  const used = await measureRestore(true, trades);
  console.log(JSON.stringify({ round, server: `used (${USE_CYCLES} restores and deletes before)`, ...used }));
  console.log(JSON.stringify({ round, longestUsedOverNew: used.longestMs / fresh.longestMs }));
}
