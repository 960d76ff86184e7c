import fs from 'node:fs';
import path from 'node:path';
import { formatTable, repoRoot, startPostgresForBench, type Row } from './lib';
import * as ai from './suites/ai';
import * as dashboard from './suites/dashboard';
import * as firstScreen from './suites/first-screen';
import * as foundation from './suites/foundation';
import * as imports from './suites/imports';
import * as load from './suites/load';
import * as notes from './suites/notes';
import * as tradeLog from './suites/trade-log';

/**
 * `npm run bench [-- suite...] [--quick]`: runs the benchmark suites on PGlite and on a throwaway PostgreSQL
 * cluster, prints a table and writes it to bench/results/latest.md.
 */
const suites: Record<string, { run: typeof foundation.run }> = { foundation, imports, dashboard, 'first-screen': firstScreen, 'trade-log': tradeLog, ai, load, notes };

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const chosen = args.filter((a) => !a.startsWith('--'));
const names = chosen.length ? chosen : Object.keys(suites);

const postgres = await startPostgresForBench();
if (!postgres) console.warn('PostgreSQL binaries not found: PostgreSQL figures are skipped');
const rows: Row[] = [];
try {
  for (const name of names) {
    const suite = suites[name];
    if (!suite) throw new Error(`unknown suite ${name}; known: ${Object.keys(suites).join(', ')}`);
    console.error(`running ${name}...`);
    rows.push(...(await suite.run({ postgres, quick })));
  }
} finally {
  postgres?.cluster.stop();
}

const table = formatTable(rows);
const header = `Measured ${new Date().toISOString().slice(0, 10)} on ${process.platform} ${process.arch}, Node ${process.version}, ${(await import('node:os')).cpus().length} cores${quick ? ' (quick run)' : ''}.`;
console.log(`${header}\n\n${table}`);
fs.mkdirSync(path.join(repoRoot, 'bench', 'results'), { recursive: true });
fs.writeFileSync(path.join(repoRoot, 'bench', 'results', 'latest.md'), `${header}\n\n${table}\n`);
