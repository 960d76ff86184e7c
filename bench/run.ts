import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatTable, repoRoot, startPostgresForBench, type Row } from './lib';
import * as ai from './suites/ai';
import * as bigFiles from './suites/big-files';
import * as dashboard from './suites/dashboard';
import * as firstScreen from './suites/first-screen';
import * as foundation from './suites/foundation';
import * as imports from './suites/imports';
import * as load from './suites/load';
import * as market from './suites/market';
import * as notes from './suites/notes';
import * as prop from './suites/prop';
import * as peers from './suites/peers';
import * as perf from './suites/perf';
import * as reports from './suites/reports';
import * as tradeLog from './suites/trade-log';

/**
 * `npm run bench [-- suite...] [--quick]`: runs the benchmark suites on PGlite and on a throwaway PostgreSQL
 * cluster, prints a table and writes it to bench/results/latest.md.
 */
const suites: Record<string, { run: typeof foundation.run }> = {
  foundation,
  imports,
  'big-files': bigFiles,
  dashboard,
  'first-screen': firstScreen,
  'trade-log': tradeLog,
  reports,
  ai,
  load,
  notes,
  market,
  prop,
  perf,
  peers,
};

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const chosen = args.filter((a) => !a.startsWith('--'));
const names = chosen.length ? chosen : Object.keys(suites);

const postgres = await startPostgresForBench();
if (!postgres) console.warn('PostgreSQL binaries not found: PostgreSQL figures are skipped');
const rows: Row[] = [];
const failed: string[] = [];
const header = () =>
  `Measured ${new Date().toISOString().slice(0, 10)} on ${process.platform} ${process.arch}, Node ${process.version}, ${os.cpus().length} cores${quick ? ' (quick run)' : ''}.`;
// The table is written after every suite, so a suite that fails late does not lose the others' figures.
const write = () => {
  fs.mkdirSync(path.join(repoRoot, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(repoRoot, 'bench', 'results', 'latest.md'), `${header()}\n\n${formatTable(rows)}\n`);
};
try {
  for (const name of names) {
    const suite = suites[name];
    if (!suite) throw new Error(`unknown suite ${name}; known: ${Object.keys(suites).join(', ')}`);
    console.error(`running ${name}...`);
    try {
      await postgres?.settle();
      rows.push(...(await suite.run({ postgres, quick })));
    } catch (error) {
      failed.push(name);
      console.error(`suite ${name} failed:`, error);
    }
    write();
  }
} finally {
  postgres?.cluster.stop();
}

console.log(`${header()}\n\n${formatTable(rows)}`);
if (failed.length > 0) {
  console.error(`failed suites: ${failed.join(', ')}`);
  process.exitCode = 1;
}
