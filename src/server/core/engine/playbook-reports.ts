import { computePlaybookReport } from '../../../domain/playbooks';
import type { Database } from '../../db/client';
import { playbooksRepo, type RuleRow } from '../playbooks/repo';
import { readerOf, type ReportScope, type ReportViewer } from './scope';

/**
 * The report of each playbook over the filter's trades, from the reports' copy of the trades (each trade's playbook
 * and ticked rules are columns of it) and the playbooks' rules. With `playbookId`, only that playbook's trades are
 * gathered (a quarter of 100,000 trades, not all three quarters of every playbook).
 */
export function playbookReportsOf(scope: ReportScope, rules: readonly RuleRow[], playbookId: string | null) {
  const { columns, rows } = scope.set;
  const codes = columns.playbook.codes;
  const { values } = columns.playbook;
  // Each playbook's trades by code (code 0 is no playbook); one code, or none, is asked when the report is one's.
  const wanted = new Uint8Array(values.length);
  for (let code = 1; code < values.length; code++) wanted[code] = playbookId === null || values[code] === playbookId ? 1 : 0;
  const counts = new Uint32Array(values.length);
  for (const i of rows) if (wanted[codes[i]!]) counts[codes[i]!]!++;
  const byCode = Array.from(counts, (n) => ({ rows: new Uint32Array(n), ticked: new Uint8Array(n), size: 0 }));
  for (const i of rows) {
    const code = codes[i]!;
    if (!wanted[code]) continue;
    const bucket = byCode[code]!;
    bucket.rows[bucket.size] = i;
    bucket.ticked[bucket.size++] = columns.ticked[i]!;
  }
  const byId = new Map<string, (typeof byCode)[number]>();
  for (let code = 1; code < values.length; code++) if (wanted[code] && counts[code]! > 0) byId.set(values[code]!, byCode[code]!);
  const ruleCount = new Map<string, number>();
  for (const r of rules) ruleCount.set(r.playbookId, (ruleCount.get(r.playbookId) ?? 0) + 1);
  const risk = scope.risk();
  return (id: string) => {
    const bucket = byId.get(id);
    return computePlaybookReport({ columns, rows: bucket?.rows ?? new Uint32Array(0) }, risk, bucket?.ticked ?? [], ruleCount.get(id) ?? 0);
  };
}

/**
 * Every playbook's report over a scope's trades (By Playbook, Reflect's analysis, the AI's report tool), by name; for a
 * mentor, the playbooks read in the mentor's transaction.
 */
export async function playbookReportsInScope(db: Database, userId: string, scope: ReportScope, viewer?: ReportViewer) {
  const { list, rules } = await readerOf(
    db,
    userId,
    viewer,
  )(async (tx) => {
    const repo = playbooksRepo(tx, userId);
    return { list: await repo.names(), rules: await repo.rules() };
  });
  const reportOf = playbookReportsOf(scope, rules, null);
  return list.map((p) => ({ id: p.id, name: p.name, report: reportOf(p.id) }));
}
