import { partialMatchKey, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeys } from './keys';

/** Whether invalidating `prefix` refreshes the query keyed `key` (TanStack Query's own matching). */
const refreshes = (prefix: QueryKey, key: QueryKey) => partialMatchKey(key, prefix);

describe('query keys: a mutation that invalidates a prefix refreshes what it means to', () => {
  it("a trade's change (['trades']) refreshes every list, statistic, report, prop status, playbook and Reflect period", () => {
    const derived: QueryKey[] = [
      queryKeys.trades.list('all', '', 5),
      queryKeys.trades.window('a1', 'nq', 2),
      queryKeys.trades.stats('all', { from: '2025-01-01' }),
      queryKeys.trades.unassignedCount,
      queryKeys.trades.unassignedDialog,
      queryKeys.trades.day('all', '2025-03-03'),
      queryKeys.trades.detail('t1'),
      queryKeys.trades.reflections('week', 0, 'all'),
      queryKeys.trades.r('all', 'all-time'),
      queryKeys.trades.rLog('all', '', ''),
      queryKeys.trades.palette('nq'),
      queryKeys.tradeDetails.detail('t1'),
      queryKeys.prop.status,
      queryKeys.prop.account('a1'),
      queryKeys.reports.report('overview', 'range=30d'),
      queryKeys.reports.options,
      queryKeys.playbooks.trade('t1'),
    ];
    for (const key of derived) expect(refreshes(queryKeys.trades.all, key), JSON.stringify(key)).toBe(true);
    // Neither the accounts, nor a trade's chart (bars change it too, so it has its own prefix), nor the notes.
    for (const key of [queryKeys.accounts.all, queryKeys.market.chart('t1', 0, null), queryKeys.notes.detail('n1')]) {
      expect(refreshes(queryKeys.trades.all, key), JSON.stringify(key)).toBe(false);
    }
  });

  it('the narrower prefixes take only their own kind', () => {
    expect(refreshes(queryKeys.trades.listAll, queryKeys.trades.list('all', 'q', 5))).toBe(true);
    expect(refreshes(queryKeys.trades.listAll, queryKeys.trades.window('all', 'q', 0))).toBe(false);
    expect(refreshes(queryKeys.trades.windowAll, queryKeys.trades.window('all', 'q', 0))).toBe(true);
    expect(refreshes(queryKeys.trades.statsAll, queryKeys.trades.stats('a1', {}, 'nq', 'none'))).toBe(true);
    expect(refreshes(queryKeys.trades.statsAll, queryKeys.trades.list('all', '', 5))).toBe(false);
    expect(refreshes(queryKeys.trades.dayAll, queryKeys.trades.day('all', '2025-03-03'))).toBe(true);
    expect(refreshes(queryKeys.trades.reflectionsAll, queryKeys.trades.reflections('month', -1, 'a1'))).toBe(true);
    expect(refreshes(queryKeys.notes.listAll, queryKeys.notes.list({ folderId: 'f1' }))).toBe(true);
    expect(refreshes(queryKeys.notes.listAll, queryKeys.notes.detail('n1'))).toBe(false);
    expect(refreshes(queryKeys.journal.daysAll, queryKeys.journal.days('2025-03-01'))).toBe(true);
    expect(refreshes(queryKeys.journal.daysAll, queryKeys.journal.day('2025-03-01'))).toBe(false);
    expect(refreshes(queryKeys.playbooks.tradeAll, queryKeys.playbooks.trade('t1'))).toBe(true);
    expect(refreshes(queryKeys.imports.all, queryKeys.imports.fees('a1'))).toBe(true);
  });

  it('keys differ where what they ask differs', () => {
    // A mentor's look at a trader's reports never shares an entry with the signed-in trader's own.
    const mentor = '/api/mentor/t1/reports';
    expect(queryKeys.reports.report('overview', 'range=30d')).not.toEqual(queryKeys.reports.report('overview', 'range=30d', {}, mentor));
    expect(queryKeys.reports.optionsOf()).not.toEqual(queryKeys.reports.optionsOf(mentor));
    expect(refreshes(queryKeys.reports.options, queryKeys.reports.optionsOf(mentor))).toBe(true);
    expect(queryKeys.trades.list('all', '', 5)).not.toEqual(queryKeys.trades.list('all', '', 5, { sort: 'pnl', dir: 'desc' }));
    expect(queryKeys.trades.list('all', '', 5)).not.toEqual(queryKeys.trades.list('all', '', 5, undefined, 'range=30d'));
    const file = { name: 'a.csv', size: 10, lastModified: 1 };
    const choices = { format: 'auto', timeZone: null, accountId: 'a1', accountMap: {}, mapping: null, tradingDay: 'exchange' };
    expect(queryKeys.imports.preview(file, choices)).toEqual(queryKeys.imports.preview({ ...file }, { ...choices }));
    expect(queryKeys.imports.preview(file, choices)).not.toEqual(queryKeys.imports.preview({ ...file, lastModified: 2 }, choices));
    expect(queryKeys.imports.preview(file, choices)).not.toEqual(queryKeys.imports.preview(file, { ...choices, accountMap: { Sim1: 'a2' } }));
    expect(queryKeys.imports.preview(file, choices)).not.toEqual(queryKeys.imports.preview(file, { ...choices, tradingDay: 'calendar' }));
  });
});
