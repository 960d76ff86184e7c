import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaybookDto, PlaybookReport, PlaybooksReport, TradePlaybookDto } from '../../src/contract/playbooks';
import { migrationsFolder } from '../../src/server/db/client';
import { formatR } from '../../src/domain/risk/format-r';
import { aiEnv, startAiServer, type AiServer } from '../support/ai-server';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { postSse } from '../support/sse';
import { migrationsBefore, openMigratingDb } from './migration-support';
import { importFile, ownFile } from './imports-support';
import { createAccount, createTrade, listAll, newTrader } from './trades-support';
import { addDays, getTodayInZone } from '../../src/domain/dates';
import { PNG_BYTES, uploadAttachment } from './notes-support';

/**
 * On both databases: playbooks with their ordered rules, owned by their trader through
 * every endpoint; a trade's playbook and ticks, and Reflect's "followed the rules" as one model with them; each
 * playbook's report; deleting a playbook leaves its trades.
 */
describe.each(backends())('playbooks on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let provider: AiServer;

  beforeAll(async () => {
    provider = await startAiServer();
    app = await startTestApp({ backend, env: aiEnv(provider, { AI_RATE_LIMIT: '200' }) });
    [alice, bob] = await Promise.all([newTrader(app, 'pb-alice'), newTrader(app, 'pb-bob')]);
  });
  afterAll(async () => {
    await app?.close();
    await provider?.close();
  });

  const makePlaybook = async (client: ApiClient, body: Record<string, unknown>) => {
    const res = await client.post('/api/playbooks', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as PlaybookDto;
  };
  const setTrade = async (client: ApiClient, tradeId: string, playbookId: string | null, ticked: string[]) => {
    const res = await client.put(`/api/trade-playbooks/${tradeId}`, { playbook_id: playbookId, ticked_rule_ids: ticked });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as TradePlaybookDto;
  };
  const followedOf = async (client: ApiClient, tradeId: string) =>
    ((await client.get(`/api/trade-playbooks/${tradeId}`)).body as TradePlaybookDto).followed_rules;

  it('keeps a playbook’s rules in their order, edits them in place keeping their ids, and refuses a bad one naming the field', async () => {
    const orb = await makePlaybook(alice, {
      name: 'Opening range breakout',
      description: 'The first 5-minute range',
      entry_criteria: 'A close outside the range',
      rules: [{ text: 'Wait for the retest' }, { text: 'Stop under the range' }, { text: 'No trade after 11:00' }],
    });
    expect(orb).toMatchObject({ name: 'Opening range breakout', entry_criteria: 'A close outside the range', trades: 0 });
    expect(orb.rules.map((r) => r.text)).toEqual(['Wait for the retest', 'Stop under the range', 'No trade after 11:00']);
    const [retest, stop, late] = orb.rules;
    // Reordered, one edited, one removed, one added: the kept ids stay.
    const edited = (
      await alice.put(`/api/playbooks/${orb.id}`, {
        name: 'ORB',
        rules: [{ id: late!.id, text: 'No trade after 11:30' }, { id: retest!.id, text: 'Wait for the retest' }, { text: 'Size 1 on Fridays' }],
      })
    ).body as PlaybookDto;
    expect(edited.rules.map((r) => [r.id === late!.id, r.id === retest!.id, r.text])).toEqual([
      [true, false, 'No trade after 11:30'],
      [false, true, 'Wait for the retest'],
      [false, false, 'Size 1 on Fridays'],
    ]);
    expect(edited.rules.map((r) => r.id)).not.toContain(stop!.id);
    expect(edited.description).toBe('');

    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ name: '' }, 'name'],
      [{ name: 'orb' }, 'name'], // the same name, another case
      [{ name: 'X', rules: [{ text: ' ' }] }, 'rules'],
      [{ name: 'X', rules: [{ id: retest!.id, text: 'Stolen rule' }] }, 'rules'], // another playbook's rule
    ];
    for (const [body, field] of refusals) {
      const res = await alice.post('/api/playbooks', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((res.body as { fields: Array<{ field: string }> }).fields[0]!.field.split('.')[0]).toBe(field);
    }
    expect(((await alice.get('/api/playbooks')).body as PlaybookDto[]).map((p) => p.name)).toEqual(['ORB']);
    await alice.delete(`/api/playbooks/${orb.id}`);
  });

  it('ticks rules per trade, derives Reflect’s answer from them and ticks them from Reflect, and reports the playbook', async () => {
    const pb = await makePlaybook(alice, { name: 'VWAP reclaim', rules: [{ text: 'Above VWAP' }, { text: 'Volume rising' }] });
    const [above, volume] = pb.rules.map((r) => r.id);
    // +$200 on $100 risked (2R), every rule followed; -$100 on $100 (-1R), one of two; +$50 without a planned risk, both.
    const a = await createTrade(alice, { date: '2026-04-06', symbol: 'NQ', pnl: 200, risk_amount: 100 });
    const b = await createTrade(alice, { date: '2026-04-07', symbol: 'NQ', pnl: -100, risk_amount: 100 });
    const c = await createTrade(alice, { date: '2026-04-08', symbol: 'ES', pnl: 50 });
    const other = await createTrade(alice, { date: '2026-04-08', symbol: 'ES', pnl: -75 });
    // The trade form may give a new trade its playbook; another trader's is refused.
    const formed = await createTrade(alice, { date: '2026-04-05', symbol: 'NQ', pnl: 0, playbook_id: pb.id });
    expect((await alice.get(`/api/trade-playbooks/${formed.id}`)).body).toMatchObject({ playbook_id: pb.id, ticked_rule_ids: [] });
    expect((await alice.delete(`/api/trades/${formed.id}`)).status).toBeLessThan(300);
    expect((await bob.post('/api/trades', { date: '2026-04-05', period: 'AM', symbol: 'NQ', pnl: 1, playbook_id: pb.id })).body.error).toBe(
      'playbook_id: Playbook not found',
    );
    // The reports' copy of the trades is read before any trade takes the playbook: what follows must renew it.
    expect(((await alice.get(`/api/playbooks/${pb.id}/report`)).body as PlaybookReport).report.trades).toBe(0);
    expect(await setTrade(alice, a.id, pb.id, [volume!, above!])).toMatchObject({
      playbook_id: pb.id,
      ticked_rule_ids: [above, volume],
      followed_rules: true,
    });
    expect((await setTrade(alice, b.id, pb.id, [above!])).followed_rules).toBe(false);
    await setTrade(alice, c.id, pb.id, [above!, volume!]);

    const report = (await alice.get(`/api/playbooks/${pb.id}/report`)).body as PlaybookReport;
    // Ticks change no column the version trigger watches: the reports' copy of the trades must still see them.
    await setTrade(alice, c.id, pb.id, [above!]);
    expect(((await alice.get(`/api/playbooks/${pb.id}/report`)).body as PlaybookReport).report.adherence).toBe(66.7);
    await setTrade(alice, c.id, pb.id, [above!, volume!]);
    expect(report.playbook.trades).toBe(3);
    expect(report.report).toMatchObject({
      trades: 3,
      wins: 2,
      losses: 1,
      winRate: 66.7,
      netCents: 15_000,
      // ($250 - $100) / 3 decided trades
      expectancyCents: 5_000,
      // (2 - 1) / 2 trades with a planned risk
      expectancyR: 0.5,
      tradesWithRisk: 2,
      tradesWithoutRisk: 1,
      rules: 2,
      // 5 ticks of 6
      adherence: 83.3,
      followed: { trades: 2, netCents: 25_000, expectancyR: 2, tradesWithoutRisk: 1 },
      broken: { trades: 1, netCents: -10_000, expectancyR: -1 },
    });
    // The reports' filter narrows it; By Playbook lists every playbook over the filter's trades.
    const es = (await alice.get(`/api/playbooks/${pb.id}/report?symbol=ES`)).body as PlaybookReport;
    expect(es.report.trades).toBe(1);
    // Its basis counts the playbook's trades under the filter, as its figures do (not every trade of the filter).
    expect([es.basis.trades, es.basis.description]).toEqual([1, 'All Time; instrument ES; playbook VWAP reclaim']);
    const all = (await alice.get('/api/reports/playbooks')).body as PlaybooksReport;
    expect(all.playbooks.map((p) => [p.name, p.report.trades, p.report.netCents])).toEqual([['VWAP reclaim', 3, 15_000]]);
    expect(all.basis.trades).toBe(4);

    // The shared filter: the Reports, the Trade Log and the AI read the playbook filter, named in the basis.
    const overview = (await alice.get(`/api/reports/overview?playbook=${pb.id}`)).body as {
      basis: { trades: number; description: string };
      overview: { netCents: number };
    };
    expect([overview.basis.trades, overview.overview.netCents]).toEqual([3, 15_000]);
    expect(overview.basis.description).toBe('All Time; playbook VWAP reclaim');
    const listed = (await alice.get(`/api/trades?playbook=${pb.id}&limit=50`)).body as { trades: Array<{ id: string }> };
    expect(listed.trades.map((t) => t.id).sort()).toEqual([a.id, b.id, c.id].sort());
    expect((await alice.get('/api/reports/overview?playbook=nope')).status).toBe(400);
    // Another trader's filter on Alice's playbook id finds none of her trades.
    expect(((await bob.get(`/api/reports/overview?playbook=${pb.id}`)).body as { basis: { trades: number } }).basis.trades).toBe(0);

    // The analyst's report tool answers by playbook with the page's figures, the trades without a planned risk said.
    const session = (await alice.get('/api/chat/sessions/current')).body as { id: string };
    provider.reply(
      { toolCalls: [{ name: 'get_report', arguments: { report: 'playbooks', filter: {} } }] },
      { text: 'Your playbooks.' },
      { text: 'Playbooks' },
    );
    const { events } = await postSse(alice, '/api/chat', {
      sessionId: session.id,
      message: 'Which playbook works, and does following its rules pay?',
    });
    expect(events.find((e: { type: string }) => e.type === 'source')).toMatchObject({ tool: 'get_report', trades: 4 });
    const tool = JSON.parse(
      provider
        .completions()
        .at(-2)!
        .body.messages.filter((m: { role: string }) => m.role === 'tool')
        .at(-1).content,
    );
    expect(tool.playbooks).toEqual([
      {
        playbook: 'VWAP reclaim',
        rules: 2,
        trades: 3,
        win_rate: '66.7%',
        net_pnl: '$150.00',
        expectancy: '$50.00',
        expectancy_r: formatR(0.5),
        r_left_out: '1 trade without a planned risk',
        rules_followed: '83.3%',
        all_rules_followed: {
          trades: 2,
          win_rate: '100.0%',
          net_pnl: '$250.00',
          expectancy: '$125.00',
          expectancy_r: '+2.00R',
          r_left_out: '1 trade without a planned risk',
        },
        one_or_more_rules_broken: { trades: 1, win_rate: '0.0%', net_pnl: '-$100.00', expectancy: '-$100.00', expectancy_r: '-1.00R' },
      },
    ]);

    provider.reply(
      { toolCalls: [{ name: 'get_report', arguments: { report: 'overview', filter: { playbook: ['vwap reclaim'] } } }] },
      { text: 'VWAP only.' },
    );
    const filtered = await postSse(alice, '/api/chat', { sessionId: session.id, message: 'And the VWAP reclaim trades alone?' });
    expect(filtered.events.find((e: { type: string }) => e.type === 'source')).toMatchObject({ tool: 'get_report', trades: 3 });

    // Reflect's "followed" on a playbook trade ticks its whole checklist; "broke" clears it.
    expect((await alice.patch(`/api/reflections/${b.id}`, { followed_rules: true })).status).toBe(200);
    expect(((await alice.get(`/api/trade-playbooks/${b.id}`)).body as TradePlaybookDto).ticked_rule_ids).toEqual([above, volume]);
    await alice.patch(`/api/reflections/${c.id}`, { followed_rules: false });
    expect((await alice.get(`/api/trade-playbooks/${c.id}`)).body).toMatchObject({ ticked_rule_ids: [], followed_rules: false });
    // A rule added to the playbook is one a trade has not ticked: Reflect's answers follow.
    await alice.put(`/api/playbooks/${pb.id}`, { name: 'VWAP reclaim', rules: [...pb.rules, { text: 'Not into news' }] });
    expect(await followedOf(alice, a.id)).toBe(false);
    expect(((await alice.get(`/api/playbooks/${pb.id}/report`)).body as PlaybookReport).report).toMatchObject({
      rules: 3,
      followed: { trades: 0 },
      broken: { trades: 3 },
    });

    // Deleting the playbook leaves its trades, without one; Reflect's answers stay (b broke the rule added since).
    expect((await alice.delete(`/api/playbooks/${pb.id}`)).status).toBe(204);
    expect((await alice.get(`/api/trades/${a.id}`)).status).toBe(200);
    expect((await alice.get(`/api/trade-playbooks/${b.id}`)).body).toMatchObject({ playbook_id: null, ticked_rule_ids: [], followed_rules: false });
    expect(await followedOf(alice, c.id)).toBe(false);
    expect((await alice.get(`/api/playbooks/${pb.id}`)).status).toBe(404);
    expect((await alice.get(`/api/trades/${other.id}`)).status).toBe(200);
  });

  it('gives every trade of an import the dialog’s playbook, and refuses another trader’s playbook with nothing stored', async () => {
    const trader = await newTrader(app, 'pb-import');
    const account = await createAccount(trader, 'Import');
    const pb = await makePlaybook(trader, { name: 'Imported setup', rules: [{ text: 'One rule' }] });
    const csv = ownFile('fills-with-commission.csv');
    const query = { account_id: account.id, time_zone: 'America/New_York', skip_unreadable: 'true' };
    const theirs = await makePlaybook(bob, { name: 'Not yours' });
    const refused = await importFile(trader, { ...query, playbook_id: theirs.id }, csv, 'text/csv');
    expect([refused.status, refused.body.error]).toEqual([400, 'playbook_id: Playbook not found']);
    expect(await listAll(trader)).toEqual([]);
    expect((await bob.delete(`/api/playbooks/${theirs.id}`)).status).toBe(204);
    const res = await importFile(trader, { ...query, playbook_id: pb.id }, csv, 'text/csv');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const imported = await listAll(trader);
    expect(imported.length).toBeGreaterThan(0);
    expect(((await trader.get(`/api/playbooks/${pb.id}`)).body as PlaybookDto).trades).toBe(imported.length);
    expect((await trader.get(`/api/trade-playbooks/${imported[0]!.id}`)).body).toMatchObject({ playbook_id: pb.id, ticked_rule_ids: [] });
  });

  it('keeps playbooks, rules and ticks to their trader through every endpoint', async () => {
    const mine = await makePlaybook(alice, { name: 'Alice only', rules: [{ text: 'Secret rule' }] });
    const aliceTrade = await createTrade(alice, { date: '2026-04-09', symbol: 'NQ', pnl: 10 });
    await setTrade(alice, aliceTrade.id, mine.id, [mine.rules[0]!.id]);
    const bobs = await makePlaybook(bob, { name: 'Bob', rules: [{ text: 'Bob rule' }] });
    const bobTrade = await createTrade(bob, { date: '2026-04-09', symbol: 'NQ', pnl: 10 });

    expect((await bob.get(`/api/playbooks/${mine.id}`)).status).toBe(404);
    expect((await bob.put(`/api/playbooks/${mine.id}`, { name: 'Taken' })).status).toBe(404);
    expect((await bob.delete(`/api/playbooks/${mine.id}`)).status).toBe(404);
    expect((await bob.get(`/api/playbooks/${mine.id}/report`)).status).toBe(404);
    expect((await bob.get(`/api/trade-playbooks/${aliceTrade.id}`)).status).toBe(404);
    expect((await bob.put(`/api/trade-playbooks/${aliceTrade.id}`, { playbook_id: null })).status).toBe(404);
    // Bob's trade cannot take Alice's playbook, nor tick her rule under his own playbook; his playbook cannot take her rule.
    const borrowed = await bob.put(`/api/trade-playbooks/${bobTrade.id}`, { playbook_id: mine.id, ticked_rule_ids: [] });
    expect([borrowed.status, (borrowed.body as { fields: Array<{ field: string }> }).fields[0]!.field]).toEqual([400, 'playbook_id']);
    expect((await bob.put(`/api/trade-playbooks/${bobTrade.id}`, { playbook_id: bobs.id, ticked_rule_ids: [mine.rules[0]!.id] })).status).toBe(400);
    expect((await bob.put(`/api/playbooks/${bobs.id}`, { name: 'Bob', rules: [{ id: mine.rules[0]!.id, text: 'Mine now' }] })).status).toBe(400);
    // Bob sees only his own.
    expect(((await bob.get('/api/playbooks')).body as PlaybookDto[]).map((p) => p.name)).toEqual(['Bob']);
    expect(((await bob.get('/api/reports/playbooks')).body as PlaybooksReport).playbooks.map((p) => p.name)).toEqual(['Bob']);
    // And nothing of Alice's changed.
    expect((await alice.get(`/api/playbooks/${mine.id}`)).body).toMatchObject({ name: 'Alice only', rules: [{ text: 'Secret rule' }], trades: 1 });
    expect((await alice.get(`/api/trade-playbooks/${aliceTrade.id}`)).body).toMatchObject({
      playbook_id: mine.id,
      ticked_rule_ids: [mine.rules[0]!.id],
      followed_rules: true,
    });
  });
  it('sets, changes and clears a trade’s playbook through PATCH /api/trades/:id, dropping its ticks, and refuses another trader’s', async () => {
    const first = await makePlaybook(alice, { name: 'Patch first', rules: [{ text: 'One' }, { text: 'Two' }] });
    const second = await makePlaybook(alice, { name: 'Patch second', rules: [{ text: 'Only' }] });
    const bobs = await makePlaybook(bob, { name: 'Patch Bob' });
    const trade = await createTrade(alice, { date: '2026-04-10', symbol: 'ES', pnl: 40 });
    const patch = (client: ApiClient, body: Record<string, unknown>) => client.patch(`/api/trades/${trade.id}`, body);

    expect((await patch(alice, { playbook_id: first.id })).status).toBe(200);
    await setTrade(
      alice,
      trade.id,
      first.id,
      first.rules.map((r) => r.id),
    );
    // The same playbook sent again with another field keeps the ticks.
    const same = await patch(alice, { playbook_id: first.id, symbol: 'MES' });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.symbol).toBe('MES');
    expect((await alice.get(`/api/trade-playbooks/${trade.id}`)).body).toMatchObject({
      playbook_id: first.id,
      ticked_rule_ids: first.rules.map((r) => r.id),
      followed_rules: true,
    });

    // Another playbook: its ticks are dropped, and with rules none ticked, Reflect's answer follows (broken).
    expect((await patch(alice, { playbook_id: second.id })).status).toBe(200);
    expect((await alice.get(`/api/trade-playbooks/${trade.id}`)).body).toMatchObject({
      playbook_id: second.id,
      ticked_rule_ids: [],
      followed_rules: false,
    });
    expect(((await alice.get(`/api/playbooks/${second.id}/report`)).body as PlaybookReport).report.trades).toBe(1);
    expect(((await alice.get(`/api/playbooks/${first.id}/report`)).body as PlaybookReport).report.trades).toBe(0);

    // Bob's playbook, a bad id, or Bob patching Alice's trade: refused, nothing changed (the symbol sent with it neither).
    const borrowed = await patch(alice, { playbook_id: bobs.id, symbol: 'NQ' });
    expect([borrowed.status, borrowed.body.error]).toEqual([400, 'playbook_id: Playbook not found']);
    const bad = await patch(alice, { playbook_id: 'nope' });
    expect([bad.status, bad.body.error]).toEqual([400, 'playbook_id: playbook_id must be a playbook id']);
    expect((await patch(bob, { playbook_id: bobs.id })).status).toBe(404);
    expect((await alice.get(`/api/trades/${trade.id}`)).body.symbol).toBe('MES');
    expect((await alice.get(`/api/trade-playbooks/${trade.id}`)).body).toMatchObject({ playbook_id: second.id });

    // null clears it; a PATCH without playbook_id leaves it alone.
    await setTrade(alice, trade.id, second.id, [second.rules[0]!.id]);
    expect((await patch(alice, { symbol: 'ES' })).status).toBe(200);
    expect((await alice.get(`/api/trade-playbooks/${trade.id}`)).body).toMatchObject({
      playbook_id: second.id,
      ticked_rule_ids: [second.rules[0]!.id],
    });
    expect((await patch(alice, { playbook_id: null })).status).toBe(200);
    expect((await alice.get(`/api/trade-playbooks/${trade.id}`)).body).toMatchObject({ playbook_id: null, ticked_rule_ids: [] });
    expect(((await alice.get(`/api/playbooks/${second.id}`)).body as PlaybookDto).trades).toBe(0);
  });

  it('puts each playbook’s report for the period beside rule-following in Reflect’s analysis, the trader’s own trades only', async () => {
    const carol = await newTrader(app, 'pb-carol');
    const day = getTodayInZone(new Date(), 'America/New_York');
    const pb = await makePlaybook(carol, { name: 'Analysis ORB', rules: [{ text: 'Range set' }, { text: 'Retest held' }] });
    const quiet = await makePlaybook(carol, { name: 'Analysis quiet' });
    // This week: +$120 every rule followed, -$45 one of two (3 of 4 ticks: 75%); a trade without a playbook; one of last year with it.
    // Planned risks of $60 and $45: +2R and -1R.
    const won = await createTrade(carol, { date: day, symbol: 'NQ', pnl: 120, risk_amount: '60' });
    const lost = await createTrade(carol, { date: day, symbol: 'NQ', pnl: -45, risk_amount: '45' });
    await createTrade(carol, { date: day, symbol: 'ES', pnl: 500 });
    const old = await createTrade(carol, { date: addDays(day, -400), symbol: 'NQ', pnl: 999 });
    await setTrade(
      carol,
      won.id,
      pb.id,
      pb.rules.map((r) => r.id),
    );
    await setTrade(carol, lost.id, pb.id, [pb.rules[0]!.id]);
    await setTrade(carol, old.id, pb.id, []);
    // Bob's trade this week under his own playbook of the same name is not Carol's.
    const bobs = await makePlaybook(bob, { name: 'Analysis ORB' });
    const bobTrade = await createTrade(bob, { date: day, symbol: 'NQ', pnl: 7 });
    await setTrade(bob, bobTrade.id, bobs.id, []);

    provider.clear();
    provider.reply({
      text: JSON.stringify({
        summary: { patterns: ['ORB carries the week.'] },
        strengths: ['Rules followed pay.'],
        weaknesses: ['One broken rule.'],
      }),
    });
    const res = await carol.post('/api/analyze-reflections', { period: 'week', offset: 0 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.report.source).toBe('ai');
    // The model reads the By Playbook rows and rule-following in R from our figures: Carol's playbook only (Bob's of the
    // same name made $7.00; her playbook without trades this week has no row).
    const prompt = provider.completions()[0]!.body.messages[1].content as string;
    expect(prompt).toContain('- Analysis ORB: 2 trades, 50.0% win rate, net $75.00, expectancy $37.50 and +0.50R a trade\n');
    expect(prompt).toContain(
      '  - rules followed 75.0% (2 rules); every rule followed: 1 trade, 100.0% win rate, net $120.00, expectancy +2.00R; one or more broken: 1 trade, 0.0% win rate, net -$45.00, expectancy -1.00R\n',
    );
    expect(prompt.match(/Analysis ORB/g)).toHaveLength(1);
    expect(prompt).not.toContain('$7.00');
    expect(prompt).not.toContain('Analysis quiet');
    expect(prompt).toContain('IN R (net P&L over the planned risk, of the 2 trades with one; 1 trade without a planned risk, left out):');
    expect(prompt).toContain('- Total +1.00R; expectancy +0.50R a trade; average win +2.00R; average loss -1.00R');
    expect(prompt).toContain('- When rules were followed: total +2.00R, expectancy +2.00R a trade\n');
    expect(prompt).toContain('- When rules were not followed: total -1.00R, expectancy -1.00R a trade\n');
    // The prose may cite those figures: none is flagged as Edgebook's own.
    expect(res.body.report.unverifiedFigures).toEqual([]);
    expect(res.body.report.r.adherence.whenFollowed).toMatchObject({ trades: 1, totalR: 2 });
    const rows = res.body.report.playbooks as Array<{ id: string; name: string; report: PlaybookReport['report'] }>;
    // A playbook without trades in the period has no row.
    expect(rows.map((r) => r.id)).toEqual([pb.id]);
    expect(quiet.id).not.toBe(pb.id);
    expect(rows[0]!.report).toMatchObject({ trades: 2, wins: 1, losses: 1, winRate: 50, netCents: 7500, rules: 2, adherence: 75 });
    expect(rows[0]!.report.followed).toMatchObject({ trades: 1, netCents: 12000 });
    expect(rows[0]!.report.broken).toMatchObject({ trades: 1, netCents: -4500 });
    // The same figures as the playbook's own report over the same days.
    const own = (await carol.get(`/api/playbooks/${pb.id}/report?range=custom&from=${res.body.report.from}&to=${res.body.report.to}`))
      .body as PlaybookReport;
    expect(rows[0]!.report).toEqual(own.report);
    // The playbook beside its report counts all its trades (last year's too), as the list does, whatever the filter.
    expect([own.playbook.trades, own.report.trades]).toEqual([3, 2]);
    expect(((await carol.get('/api/playbooks')).body as PlaybookDto[]).find((p) => p.id === pb.id)!.trades).toBe(3);
    // The page's trades sent: only those count.
    const subset = await carol.post('/api/analyze-reflections', { timeframe: 'week', trades: [{ tradeId: won.id }] });
    expect((subset.body.report.playbooks as typeof rows).map((r) => [r.id, r.report.trades, r.report.netCents])).toEqual([[pb.id, 1, 12000]]);
  });

  it('keeps a playbook’s images (by URL and uploaded) to its trader, and deleting the playbook removes them and their files', async () => {
    const pb = await makePlaybook(alice, { name: 'With charts', rules: [{ text: 'Wait for the retest' }] });
    const other = await makePlaybook(alice, { name: 'Without charts' });
    const byUrl = await alice.post('/api/attachments', {
      playbook_id: pb.id,
      url: 'https://s3.tradingview.com/snapshots/pb.png',
      caption: 'A+ example',
    });
    expect(byUrl.status, JSON.stringify(byUrl.body)).toBe(201);
    expect(byUrl.body).toMatchObject({ playbook_id: pb.id, note_id: null, trade_id: null, caption: 'A+ example', uploaded: false });
    await new Promise((r) => setTimeout(r, 5));
    const uploaded = await uploadAttachment(alice, { playbook_id: pb.id }, PNG_BYTES, 'setup.png');
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    expect(uploaded.body).toMatchObject({ playbook_id: pb.id, uploaded: true });
    expect((await alice.request('GET', uploaded.body.url)).status).toBe(200);
    // Newest first, and only this playbook's.
    expect(((await alice.get(`/api/attachments?playbook_id=${pb.id}`)).body as Array<{ id: string }>).map((a) => a.id)).toEqual([
      uploaded.body.id,
      byUrl.body.id,
    ]);
    expect((await alice.get(`/api/attachments?playbook_id=${other.id}`)).body).toEqual([]);
    // A playbook and a note at once, or a bad id, is refused naming the field.
    const both = await alice.post('/api/attachments', { playbook_id: pb.id, trade_id: pb.id, url: 'https://x.test/a.png' });
    expect([both.status, both.body.error]).toEqual([400, 'note_id: note_id, trade_id or playbook_id is required (one of them)']);
    const bad = await alice.post('/api/attachments', { playbook_id: 'x', url: 'https://x.test/a.png' });
    expect([bad.status, bad.body.error]).toEqual([400, 'playbook_id: playbook_id must be a playbook id']);

    // Bob cannot see, add to, upload to or remove Alice's playbook's images, nor fetch her file.
    expect((await bob.get(`/api/attachments?playbook_id=${pb.id}`)).status).toBe(404);
    const bobUrl = await bob.post('/api/attachments', { playbook_id: pb.id, url: 'https://x.test/b.png' });
    expect([bobUrl.status, bobUrl.body.error]).toEqual([400, 'playbook_id: Playbook not found']);
    const bobUpload = await uploadAttachment(bob, { playbook_id: pb.id }, PNG_BYTES);
    expect([bobUpload.status, bobUpload.body.error]).toEqual([400, 'playbook_id: Playbook not found']);
    expect((await bob.delete(`/api/attachments/${byUrl.body.id}`)).status).toBe(404);
    expect((await bob.request('GET', uploaded.body.url)).status).toBe(404);
    expect((await alice.get(`/api/attachments?playbook_id=${pb.id}`)).body).toHaveLength(2);

    // Removing one image, then deleting the playbook: its rows and its uploaded file go, the other playbook stays.
    expect((await alice.delete(`/api/attachments/${byUrl.body.id}`)).status).toBe(204);
    expect((await alice.get(`/api/attachments?playbook_id=${pb.id}`)).body).toHaveLength(1);
    expect((await alice.delete(`/api/playbooks/${pb.id}`)).status).toBe(204);
    expect((await alice.request('GET', uploaded.body.url)).status).toBe(404);
    expect((await alice.get(`/api/attachments?playbook_id=${pb.id}`)).status).toBe(404);
    expect((await alice.get(`/api/playbooks/${other.id}`)).status).toBe(200);
  });
});

describe.each(backends())('migration playbooks on a database with data on %s', (backend) => {
  const folders: string[] = [];
  afterAll(() => {
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every Reflect answer (followed, broken, not rated) and leaves trades without a playbook', async () => {
    const db = await openMigratingDb(backend);
    try {
      const before = migrationsBefore(25);
      folders.push(before);
      await db.migrate(before);
      const user = 'user-before-0025';
      await db.query(`insert into "user" (id, name, email) values ($1, 'Before', 'before-0025@example.com')`, [user]);
      const ids = [1, 2, 3].map((n) => `00000000-0000-4000-8000-00000000002${n}`);
      for (const [n, id] of ids.entries()) {
        await db.query(
          `insert into trades (id, user_id, trade_date, day_of_week, symbol, period, status, pnl) values ($1, $2, '2025-06-10T12:00:00Z', 'Tuesday', 'NQ', 'AM', 'Win', $3)`,
          [id, user, 10 + n],
        );
      }
      await db.query(
        `insert into trade_reflections (trade_id, user_id, followed_rules, description) values ($1, $4, true, 'kept'), ($2, $4, false, null), ($3, $4, null, 'unrated')`,
        [...ids, user],
      );
      const reflectionsBefore = (await db.query(`select trade_id, followed_rules, description from trade_reflections order by trade_id`)).rows;

      await db.migrate(migrationsFolder);

      expect((await db.query(`select trade_id, followed_rules, description from trade_reflections order by trade_id`)).rows).toEqual(
        reflectionsBefore,
      );
      expect((await db.query(`select playbook_id from trades order by id`)).rows).toEqual([
        { playbook_id: null },
        { playbook_id: null },
        { playbook_id: null },
      ]);
      // A trade cannot point at a playbook that is not its trader's.
      await db.query(`insert into "user" (id, name, email) values ('other-0025', 'Other', 'other-0025@example.com')`);
      const foreign = (
        (await db.query(`insert into playbooks (user_id, name) values ('other-0025', 'Theirs') returning id`)).rows[0] as { id: string }
      ).id;
      await expect(db.query(`update trades set playbook_id = $1 where id = $2`, [foreign, ids[0]])).rejects.toThrow(/trades_playbook_owner_fk/);
    } finally {
      await db.close();
    }
  });
});

describe.each(backends())('migration playbook images on a database with data on %s', (backend) => {
  const folders: string[] = [];
  afterAll(() => {
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the images of notes and trades, and an image belongs to exactly one note, trade or playbook of its trader', async () => {
    const db = await openMigratingDb(backend);
    try {
      const before = migrationsBefore(31);
      folders.push(before);
      await db.migrate(before);
      const user = 'user-before-0031';
      await db.query(`insert into "user" (id, name, email) values ($1, 'Before', 'before-0031@example.com')`, [user]);
      const trade = '00000000-0000-4000-8000-000000000311';
      await db.query(
        `insert into trades (id, user_id, trade_date, day_of_week, symbol, period, status, pnl) values ($1, $2, '2025-06-10T12:00:00Z', 'Tuesday', 'NQ', 'AM', 'Win', 10)`,
        [trade, user],
      );
      const note = ((await db.query(`insert into notes (user_id, title) values ($1, 'Before') returning id`, [user])).rows[0] as { id: string }).id;
      await db.query(`insert into attachments (user_id, note_id, url) values ($1, $2, 'https://x.test/n.png')`, [user, note]);
      await db.query(`insert into attachments (user_id, trade_id, url) values ($1, $2, 'https://x.test/t.png')`, [user, trade]);
      const rowsBefore = (await db.query(`select id, note_id, trade_id, url from attachments order by url`)).rows;

      await db.migrate(migrationsFolder);

      const rowsAfter = (await db.query(`select id, note_id, trade_id, playbook_id, url from attachments order by url`)).rows;
      expect(rowsAfter).toEqual(rowsBefore.map((r) => ({ ...r, playbook_id: null })));
      const playbook = ((await db.query(`insert into playbooks (user_id, name) values ($1, 'Mine') returning id`, [user])).rows[0] as { id: string })
        .id;
      await db.query(`insert into attachments (user_id, playbook_id, url) values ($1, $2, 'https://x.test/p.png')`, [user, playbook]);
      // Two owners at once, or another trader's playbook, are refused by the database too.
      await expect(
        db.query(`insert into attachments (user_id, playbook_id, note_id, url) values ($1, $2, $3, 'https://x.test/x.png')`, [user, playbook, note]),
      ).rejects.toThrow(/attachments_one_owner_row/);
      await db.query(`insert into "user" (id, name, email) values ('other-0031', 'Other', 'other-0031@example.com')`);
      await expect(
        db.query(`insert into attachments (user_id, playbook_id, url) values ('other-0031', $1, 'https://x.test/o.png')`, [playbook]),
      ).rejects.toThrow(/attachments_playbook_owner_fk/);
      // Deleting the playbook deletes its image rows.
      await db.query(`delete from playbooks where id = $1`, [playbook]);
      expect((await db.query(`select count(*)::int as n from attachments`)).rows[0]).toEqual({ n: 2 });
    } finally {
      await db.close();
    }
  });
});
