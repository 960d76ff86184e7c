import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError } from '../../src/contract/common';
import { preferences, preferencesUpdate } from '../../src/contract/preferences';
import { profile } from '../../src/contract/profile';
import { quickLink, quickLinkImport, quickLinkList } from '../../src/contract/quick-links';
import { taskDayStatusList, task, taskList } from '../../src/contract/tasks';
import { tradePreferences, tradePreferencesChange } from '../../src/contract/trade-preferences';
import {
  assignResult,
  backupImportResult,
  bulkDeleteResult,
  bulkRiskResult,
  trade,
  tradeBackup,
  tradePage,
  tradeStats,
  unassignedCount,
} from '../../src/contract/trades';
import { mistakeTags, riskDefault, riskDefaultList } from '../../src/contract/risk';
import { playbook, playbookList, playbookReport, playbooksReport, tradePlaybook } from '../../src/contract/playbooks';
import { attachment, attachmentList } from '../../src/contract/attachments';
import { journalDayDetail, journalDays, journalSave, noteChanged } from '../../src/contract/journal';
import { note, noteFolder, noteFolderList, notePage, tagList, tagRef } from '../../src/contract/notes';
import { tradeDetails } from '../../src/contract/trade-details';
import { analysisEvent, analyzeResult, periodSummary, reflectionOverride, reflectionsPage } from '../../src/contract/reflections';
import { feeSchedule, feeScheduleApplied, importFormats, importOutcome, importPreview, importQueue } from '../../src/contract/imports';
import { appConfig, health, onboardingResult } from '../../src/contract/config';
import { accountDeleted, accountExport, captchaVerdict } from '../../src/contract/account';
import { chatEvent, chatMessageList, chatSession, chatSessionList, deepThinkEvent, deletedChatSession } from '../../src/contract/chat';
import { brokerConnection, brokerConnectionList, connectionTest } from '../../src/contract/connections';
import { draftEvent, draftResult } from '../../src/contract/notes';
import { ledger, ledgerEntry, propAccountDetail, propStatusList, ruleSet } from '../../src/contract/prop';
import { findPropTemplate } from '../../src/domain/prop';
import {
  breakdownReport,
  calendarReport,
  distributionReport,
  equityReport,
  excursionsReport,
  heatmapReport,
  mistakesReport,
  overviewReport,
  reportOptions,
  rReport,
} from '../../src/contract/reports';
import { aiEnv, startAiServer, type AiServer } from '../support/ai-server';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { conforms } from '../support/contract';
import { startProjectXServer, type ProjectXStandIn } from '../support/projectx-server';
import { postSse } from '../support/sse';
import { importFile, ownFile, previewFile, sendFile } from './imports-support';
import { barFormats, barsCoverage, barsDeleted, barsOutcome, barsPreview, tradeChart, tradeFills } from '../../src/contract/market';
import { PNG_BYTES, uploadAttachment } from './notes-support';
import { createAccount, createTrade, newTrader } from './trades-support';

/**
 * One contract per endpoint: every answer of these endpoints, taken from a real server on both databases,
 * matches the strict schema in src/contract that the server types its answer with and the web app takes its types
 * from. A field added, dropped or retyped on one side only fails here.
 */
describe.each(backends())('every endpoint answers in the shape of its contract on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let gateway: ProjectXStandIn;

  beforeAll(async () => {
    gateway = await startProjectXServer({ users: [{ userName: 'contract.px', apiKey: 'contract-key-42' }] });
    gateway.accounts = [
      { id: 8001, name: 'CONTRACT-8001', balance: 50_000, canTrade: true, isVisible: true, simulated: true, active: true, userName: 'contract.px' },
    ];
    app = await startTestApp({ backend, env: { PROJECTX_API_URL: gateway.url } });
    [alice, bob] = await Promise.all([newTrader(app, 'alice'), newTrader(app, 'bob')]);
  });
  afterAll(async () => {
    await app?.close();
    await gateway?.close();
  });

  it('trades: statistics, the unassigned count, assign, bulk delete, backup export and import', async () => {
    const account = await createAccount(alice, 'Contract Eval');
    const win = await createTrade(alice, { date: '2026-03-09', period: 'AM', symbol: 'NQ', pnl: 120, commission: 4 });
    const loss = await createTrade(alice, { date: '2026-03-10', period: 'PM', symbol: 'ES', pnl: -40.5, account_id: account.id });

    const stats = conforms(tradeStats, await alice.get('/api/trades/stats'));
    expect(stats.summary).toMatchObject({ trades: 2, wins: 1, losses: 1, pnlCents: 7950 });
    // The list in a column's order, page by page (the sort and direction travel in the cursor).
    const byPnl = conforms(tradePage, await alice.get('/api/trades?sort=pnl&dir=asc&limit=1'));
    expect(byPnl.trades.map((t) => t.id)).toEqual([loss.id]);
    expect(conforms(tradePage, await alice.get(`/api/trades?sort=pnl&dir=asc&limit=1&cursor=${byPnl.next_cursor}`)).trades[0]!.id).toBe(win.id);
    conforms(apiError, await alice.get('/api/trades?sort=notes'), 400);
    conforms(apiError, await alice.get(`/api/trades?sort=symbol&cursor=${byPnl.next_cursor}`), 400);
    expect(stats.by_weekday.map((d) => d.day)).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']);
    // No losses: the profit factor is infinite, and JSON carries it as null, as the contract says.
    const onlyWins = conforms(tradeStats, await alice.get('/api/trades/stats?account=unassigned&days=none'));
    expect(onlyWins.summary.profitFactor).toBeNull();
    expect(onlyWins.by_day).toEqual([]);
    conforms(tradeStats, await alice.get('/api/trades/stats?days=2026-03-10'));

    expect(conforms(unassignedCount, await alice.get('/api/trades/unassigned-count')).count).toBe(1);
    expect(conforms(assignResult, await alice.post('/api/trades/assign', { ids: [win.id], account_id: account.id })).assigned).toBe(1);

    const backup = conforms(tradeBackup, await alice.get('/api/trades/export'));
    expect(backup.map((t) => t.id).sort()).toEqual([win.id, loss.id].sort());
    const restored = conforms(backupImportResult, await alice.post('/api/trades/import', { account_id: account.id, trades: backup }), 201);
    expect(restored).toEqual({ imported: 2, skipped: 0 });
    // The same backup again: each trade is known by its original id now.
    expect(conforms(backupImportResult, await alice.post('/api/trades/import', { account_id: account.id, trades: backup }), 201)).toEqual({
      imported: 0,
      skipped: 2,
    });

    expect(conforms(bulkDeleteResult, await alice.post('/api/trades/bulk-delete', { ids: [win.id, loss.id] })).deleted).toBe(2);
    // Another trader's ids delete nothing.
    const bobs = await createTrade(bob, { date: '2026-03-09', period: 'AM', pnl: 5 });
    expect(conforms(bulkDeleteResult, await alice.post('/api/trades/bulk-delete', { ids: [bobs.id] })).deleted).toBe(0);
  });

  it('preferences, trade preferences and the profile', async () => {
    const prefs = conforms(preferences, await alice.get('/api/preferences'));
    expect(prefs).toMatchObject({ theme: 'dark', time_zone: 'America/New_York', trading_day: 'exchange', onboarded: false });
    const changed = conforms(preferencesUpdate, await alice.patch('/api/preferences', { theme: 'light', trading_day: 'calendar' }));
    expect(changed).toMatchObject({ theme: 'light', trading_day: 'calendar', refiled_trades: 0 });

    const options = conforms(tradePreferences, await alice.get('/api/trade-preferences'));
    expect(options.session.length).toBeGreaterThan(0);
    const added = conforms(tradePreferencesChange, await alice.post('/api/trade-preferences', { type: 'tag', value: 'Contract' }), 201);
    expect(added.tag).toContain('Contract');
    const removed = conforms(
      tradePreferencesChange,
      await alice
        .request('DELETE', '/api/trade-preferences', { type: 'tag', value: 'Contract' })
        .then(async (r) => ({ status: r.status, body: await r.json() })),
    );
    expect(removed.tag).not.toContain('Contract');

    conforms(profile, await alice.get('/api/profile'));
    expect(conforms(profile, await alice.patch('/api/profile', { display_name: 'Alice T' })).display_name).toBe('Alice T');
  });

  it('tasks and their daily status', async () => {
    const created = conforms(task, await alice.post('/api/tasks', { title: 'Review the tape', task_date: '2026-03-09', recurring: true }), 201);
    expect(created).toMatchObject({ category: 'Daily', completed: false, recurring: true, task_date: '2026-03-09' });
    expect(conforms(task, await alice.patch(`/api/tasks/${created.id}`, { completed: true })).completed).toBe(true);
    expect(conforms(taskList, await alice.get('/api/tasks?date=2026-03-09')).map((t) => t.id)).toEqual([created.id]);
    // The next day carries the recurring task over, open.
    expect(conforms(taskList, await alice.get('/api/tasks?date=2026-03-10'))).toMatchObject([{ title: 'Review the tape', completed: false }]);
    const status = conforms(taskDayStatusList, await alice.get('/api/tasks/status?from=2026-03-01&to=2026-03-31'));
    expect(status.find((d) => d.date === '2026-03-09')).toMatchObject({ total: 1, completed: 1 });
    expect(conforms(taskList, await bob.get('/api/tasks?date=2026-03-09'))).toEqual([]);
    conforms(apiError, await bob.patch(`/api/tasks/${created.id}`, { completed: false }), 404);
  });

  it('quick links', async () => {
    const first = conforms(quickLink, await alice.post('/api/quick-links', { title: 'Tape', url: 'example.com/tape' }), 201);
    expect(first).toMatchObject({ url: 'https://example.com/tape', icon: null, position: 1 });
    const second = conforms(quickLink, await alice.post('/api/quick-links', { title: 'News', url: 'https://example.com/news', icon: 'news' }), 201);
    expect(conforms(quickLink, await alice.patch(`/api/quick-links/${first.id}`, { title: 'Tape reading' })).title).toBe('Tape reading');
    expect(conforms(quickLinkList, await alice.post('/api/quick-links/reorder', { ids: [second.id, first.id] })).map((l) => l.id)).toEqual([
      second.id,
      first.id,
    ]);
    expect(conforms(quickLinkList, await alice.get('/api/quick-links'))).toHaveLength(2);
    const imported = conforms(
      quickLinkImport,
      await alice.post('/api/quick-links/import', { links: [{ title: 'Calendar', url: 'https://example.com/cal' }] }),
    );
    expect(imported.imported).toBe(1);
    expect(conforms(quickLinkImport, await alice.post('/api/quick-links/defaults')).links.length).toBeGreaterThan(3);
    conforms(apiError, await bob.patch(`/api/quick-links/${first.id}`, { title: 'Mine' }), 404);
  });

  it('risk: defaults, a trade’s plan and R-multiple, the bulk risk edit', async () => {
    const account = await createAccount(alice, 'Contract Risk');
    const nq = conforms(riskDefault, await alice.put('/api/risk-defaults', { account_id: account.id, root: 'NQ', stop_points: 20 }));
    conforms(riskDefault, await alice.put('/api/risk-defaults', { risk_amount: '250' }));
    expect(conforms(riskDefaultList, await alice.get('/api/risk-defaults')).map((d) => d.id)[0]).toBe(nq.id);
    const planned = conforms(
      trade,
      await alice.post('/api/trades', {
        date: '2026-03-12',
        period: 'AM',
        symbol: 'NQ',
        side: 'Short',
        quantity: 1,
        entry_price: 21000,
        stop_price: 21010,
        target_price: 20970,
        pnl: 200,
      }),
      201,
    );
    expect([planned.planned_risk, planned.r_multiple]).toEqual([{ amount: '200.00', source: 'stop' }, 1]);
    const defaulted = conforms(
      trade,
      await alice.post('/api/trades', { date: '2026-03-12', period: 'AM', symbol: 'NQ', account_id: account.id, quantity: 2, pnl: -400 }),
      201,
    );
    expect(defaulted.planned_risk).toEqual({ amount: '800.00', source: 'default-stop' });
    expect(
      conforms(bulkRiskResult, await alice.post('/api/trades/bulk-risk', { ids: [planned.id, defaulted.id], risk: { kind: 'clear' } })).updated,
    ).toBe(2);
    conforms(apiError, await alice.post('/api/trades/bulk-risk', { ids: [planned.id], risk: { kind: 'stop_points', points: -1 } }), 400);
    conforms(apiError, await bob.delete(`/api/risk-defaults/${nq.id}`), 404);
    expect((await alice.delete(`/api/risk-defaults/${nq.id}`)).status).toBe(204);
    // Mistakes: the list and its report.
    expect(conforms(mistakeTags, await alice.put('/api/mistake-tags', { tags: ['FOMO'] })).tags).toEqual(['FOMO']);
    conforms(mistakeTags, await alice.get('/api/mistake-tags'));
    conforms(apiError, await alice.put('/api/mistake-tags', { tags: [''] }), 400);
    conforms(mistakesReport, await alice.get('/api/reports/mistakes'));
    conforms(rReport, await alice.get('/api/reports/r?risk=with'));
  });

  it('playbooks: the list, a trade’s playbook and ticks, each playbook’s report', async () => {
    const made = conforms(
      playbook,
      await alice.post('/api/playbooks', {
        name: 'Contract ORB',
        entry_criteria: 'Break of the 5-minute range',
        rules: [{ text: 'Wait for the retest' }],
      }),
      201,
    );
    const edited = conforms(
      playbook,
      await alice.put(`/api/playbooks/${made.id}`, { name: 'Contract ORB', rules: [...made.rules, { text: 'Stop under the range' }] }),
    );
    expect(edited.rules.map((r) => r.text)).toEqual(['Wait for the retest', 'Stop under the range']);
    expect(conforms(playbookList, await alice.get('/api/playbooks')).map((p) => p.id)).toContain(made.id);
    conforms(playbook, await alice.get(`/api/playbooks/${made.id}`));
    const t = await createTrade(alice, { date: '2026-03-13', period: 'AM', symbol: 'NQ', pnl: 120 });
    const set = conforms(
      tradePlaybook,
      await alice.put(`/api/trade-playbooks/${t.id}`, { playbook_id: made.id, ticked_rule_ids: [edited.rules[0]!.id] }),
    );
    expect(set.followed_rules).toBe(false);
    conforms(tradePlaybook, await alice.get(`/api/trade-playbooks/${t.id}`));
    expect(conforms(playbookReport, await alice.get(`/api/playbooks/${made.id}/report`)).report.trades).toBe(1);
    conforms(playbooksReport, await alice.get('/api/reports/playbooks'));
    conforms(apiError, await alice.post('/api/playbooks', { name: ' ' }), 400);
    conforms(apiError, await bob.get(`/api/playbooks/${made.id}/report`), 404);
    const image = conforms(attachment, await alice.post('/api/attachments', { playbook_id: made.id, url: 'https://example.com/orb.png' }), 201);
    expect(image.playbook_id).toBe(made.id);
    expect(conforms(attachmentList, await alice.get(`/api/attachments?playbook_id=${made.id}`)).map((a) => a.id)).toEqual([image.id]);
    conforms(apiError, await bob.post('/api/attachments', { playbook_id: made.id, url: 'https://example.com/orb.png' }), 400);
    expect((await alice.delete(`/api/playbooks/${made.id}`)).status).toBe(204);
  });

  it('answers a bad request with the shared error shape naming the field', async () => {
    const bad = conforms(apiError, await alice.post('/api/tasks', { title: '', task_date: '2026-03-09' }), 400);
    expect(bad.fields?.map((f) => f.field)).toEqual(['title']);
    conforms(apiError, await alice.get('/api/trades/stats?days=yesterday'), 400);
  });
  it('notes, folders, tags and attachments', async () => {
    const folder = conforms(noteFolder, await alice.post('/api/note-folders', { name: 'Playbook' }), 201);
    expect(folder.note_count).toBe(0);
    const tag = conforms(tagRef, await alice.post('/api/tags', { name: 'Setups' }), 201);
    expect(conforms(tagRef, await alice.post('/api/tags', { name: 'Setups' })).id).toBe(tag.id);
    expect(conforms(tagList, await alice.get('/api/tags')).map((t) => t.id)).toContain(tag.id);
    const trade = await createTrade(alice, { date: '2026-03-11', period: 'AM', symbol: 'CL', pnl: -12.34 });
    const created = conforms(
      note,
      await alice.post('/api/notes', { title: 'ORB', content: 'Wait for the retest', folder_id: folder.id, trade_id: trade.id, tag_ids: [tag.id] }),
      201,
    );
    expect(created).toMatchObject({ net_pl: '-12.34', stocks_traded: 'CL', trade: { id: trade.id, date: '2026-03-11' }, tags: [{ id: tag.id }] });
    const byUrl = conforms(
      attachment,
      await alice.post('/api/attachments', { note_id: created.id, url: 'https://example.com/chart.png', caption: 'entry' }),
      201,
    );
    expect(byUrl.uploaded).toBe(false);
    const uploaded = conforms(attachment, await uploadAttachment(alice, { note_id: created.id }, PNG_BYTES), 201);
    expect(uploaded.uploaded).toBe(true);
    expect(conforms(attachmentList, await alice.get(`/api/attachments?note_id=${created.id}`))).toHaveLength(2);
    const patched = conforms(note, await alice.patch(`/api/notes/${created.id}`, { title: 'ORB retest', tag_ids: [] }));
    expect(patched).toMatchObject({ title: 'ORB retest', tags: [] });
    expect(patched.attachments).toHaveLength(2);
    expect(conforms(note, await alice.get(`/api/notes/${created.id}`)).content).toBe('Wait for the retest');
    const page = conforms(notePage, await alice.get(`/api/notes?folder_id=${folder.id}`));
    expect(page.notes.map((n) => n.id)).toEqual([created.id]);
    expect(conforms(notePage, await alice.get('/api/notes?q=retest')).notes.map((n) => n.id)).toEqual([created.id]);
    expect(conforms(noteFolderList, await alice.get('/api/note-folders')).find((f) => f.id === folder.id)?.note_count).toBe(1);
    expect(conforms(noteFolder, await alice.patch(`/api/note-folders/${folder.id}`, { name: 'Playbook A+' })).name).toBe('Playbook A+');

    const details = conforms(tradeDetails, await alice.get(`/api/trade-details/${trade.id}`));
    expect(details.notes.map((n) => n.id)).toEqual([created.id]);
    // Another trader sees none of it.
    conforms(apiError, await bob.get(`/api/notes/${created.id}`), 404);
    conforms(apiError, await bob.get(`/api/trade-details/${trade.id}`), 404);
    expect(conforms(notePage, await bob.get('/api/notes')).notes).toEqual([]);
  });

  it('the daily journal', async () => {
    await createTrade(alice, { date: '2026-04-01', period: 'AM', symbol: 'NQ', pnl: 50 });
    await createTrade(alice, { date: '2026-04-01', period: 'PM', symbol: 'ES', pnl: -20.25 });
    const before = conforms(journalDayDetail, await alice.get('/api/journal/2026-04-01'));
    expect(before).toMatchObject({ pnl: '29.75', note: null });
    expect(before.trades).toHaveLength(2);
    const saved = conforms(journalSave, await alice.put('/api/journal/2026-04-01', { content: 'Stopped after the second loss' }));
    expect(saved.note.content).toBe('Stopped after the second loss');
    expect(conforms(journalDayDetail, await alice.get('/api/journal/2026-04-01')).note?.id).toBe(saved.note.id);
    expect(conforms(journalDays, await alice.get('/api/journal/days?date=2026-04-01')).days).toEqual([
      { date: '2026-04-01', trades: 2, pnl: '29.75', has_note: true },
    ]);
    expect(conforms(journalDays, await alice.get('/api/journal/days')).days.length).toBeGreaterThan(0);
    expect(conforms(journalDayDetail, await bob.get('/api/journal/2026-04-01'))).toMatchObject({ pnl: '0.00', trades: [], note: null });
    // A save based on a version that is no longer the saved one (two tabs), journal and notebook alike.
    const stale = { base_updated_at: '2020-01-01T00:00:00.000Z', content: 'older words' };
    expect(conforms(noteChanged, await alice.put('/api/journal/2026-04-01', stale), 409).updated_at).toBe(saved.note.updated_at);
    conforms(noteChanged, await alice.patch(`/api/notes/${saved.note.id}`, stale), 409);
  });
  it('reflections, their summary, an override and the analysis (JSON and event stream)', async () => {
    const carol = await newTrader(app, 'carol');
    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'America/New_York' });
    const win = await createTrade(carol, { date: today, period: 'AM', symbol: 'NQ', trade_type: 'Breakout', pnl: 250, tags: ['A+'] });
    await createTrade(carol, { date: today, period: 'PM', symbol: 'ES', trade_type: 'Reversal', pnl: -100 });
    const page = conforms(reflectionsPage, await carol.get('/api/reflections?period=week&offset=0'));
    expect(page.statistics.totals).toMatchObject({ totalTrades: 2, wins: 1, losses: 1, pnlCents: 15000, profitFactor: 2.5 });
    conforms(reflectionsPage, await carol.get('/api/reflections?period=month&offset=1'));
    conforms(periodSummary, await carol.get('/api/reflections/summary?period=week&offset=0'));

    const override = conforms(reflectionOverride, await carol.patch(`/api/reflections/${win.id}`, { followed_rules: true, tags: ['Patient'] }));
    expect(override).toMatchObject({ trade_id: win.id, followed_rules: true, tags: ['Patient'], description: null });
    conforms(apiError, await bob.patch(`/api/reflections/${win.id}`, { followed_rules: false }), 404);

    // No provider on this server: the local analysis, with the notice that says so.
    const analyzed = conforms(analyzeResult, await carol.post('/api/analyze-reflections', { period: 'week', offset: 0 }));
    expect(analyzed.report).toMatchObject({ source: 'local', model: null, totals: { totalTrades: 2 } });
    expect(analyzed.report.notice?.title).toBeTruthy();
    const streamed = await postSse(carol, '/api/analyze-reflections', { period: 'week', offset: 0 });
    expect(streamed.contentType).toContain('text/event-stream');
    const events = streamed.events.filter((e) => e !== '[DONE]').map((e) => analysisEvent.parse(e));
    expect(events.map((e) => e.type)).toContain('progress');
    expect(events.at(-1)?.type).toBe('result');
  });
  it('broker imports: formats, preview, import and fee schedules', async () => {
    const dave = await newTrader(app, 'dave');
    const account = await createAccount(dave, 'Tradovate');
    expect(conforms(importFormats, await dave.get('/api/imports/formats')).length).toBeGreaterThan(3);
    expect(conforms(importQueue, await dave.get('/api/imports/queue'))).toEqual({ waiting: 0, ahead: 0 });
    const file = ownFile('tradovate-performance-london.csv');
    const query = { account_id: account.id, time_zone: 'America/New_York', browser_time_zone: 'Europe/London' };
    const preview = conforms(importPreview, await previewFile(dave, query, file));
    expect(preview.new_trades).toBeGreaterThan(0);
    expect(preview.time_zone_check).not.toBeNull();
    conforms(importPreview, await previewFile(dave, { time_zone: 'America/New_York' }, ownFile('ninjatrader-same-minute.csv')));
    const outcome = conforms(importOutcome, await importFile(dave, { ...query, time_zone: 'Europe/London' }, file));
    expect(outcome.imported).toBe(preview.new_trades);
    expect(outcome.accounts).toEqual([{ account_id: account.id, imported: outcome.imported, duplicates: 0 }]);

    const fees = conforms(feeSchedule, await dave.get(`/api/imports/fees/${account.id}`));
    expect(fees.stored).toBe(false);
    expect(conforms(feeSchedule, await dave.put(`/api/imports/fees/${account.id}`, { micro: '0.52', mini: '1.29' })).stored).toBe(true);
    conforms(feeScheduleApplied, await dave.post(`/api/imports/fees/${account.id}/apply`));
    conforms(apiError, await bob.get(`/api/imports/fees/${account.id}`), 400);
  });
  it('fills, price bars and charts', async () => {
    const frank = await newTrader(app, 'frank');
    const trade = await createTrade(frank, { date: '2025-03-05', period: 'AM', symbol: 'MNQH5', pnl: 0 });
    expect(conforms(tradeFills, await frank.get(`/api/trades/${trade.id}/fills`))).toEqual({ trade_id: trade.id, editable: true, fills: [] });
    const saved = conforms(
      tradeFills,
      await frank.put(`/api/trades/${trade.id}/fills`, {
        fills: [
          { time: '2025-03-05T15:00:30Z', side: 'Buy', quantity: 1, price: '21000', commission: '0.52' },
          { time: '2025-03-05T15:02:10Z', side: 'Sell', quantity: 1, price: '21006.25', commission: null },
        ],
      }),
    );
    expect(saved.fills.map((f) => f.commission)).toEqual(['0.52', null]);
    expect(conforms(tradeDetails, await frank.get(`/api/trade-details/${trade.id}`)).fills).toHaveLength(2);
    conforms(apiError, await frank.put(`/api/trades/${trade.id}/fills`, { fills: [{ time: 'soon', side: 'Buy', quantity: 1, price: 1 }] }), 400);
    conforms(apiError, await bob.get(`/api/trades/${trade.id}/fills`), 404);
    expect(conforms(tradeBackup, await frank.get('/api/trades/export'))[0]!.fills).toHaveLength(2);

    expect(conforms(barFormats, await frank.get('/api/market/formats')).map((f) => f.id)).toEqual([
      'ninjatrader-bars',
      'tradingview-bars',
      'databento-ohlcv',
      'mapped-bars',
    ]);
    const bars = [
      'time,open,high,low,close,Volume',
      ...Array.from({ length: 10 }, (_, i) => `${Date.UTC(2025, 2, 5, 15, i) / 1000},21000,21008,20996,21004,5`),
    ].join('\n');
    const barsPreviewed = conforms(barsPreview, await sendFile(frank, '/api/market/bars/preview', { contract: 'MNQH5' }, bars));
    expect(barsPreviewed.series).toEqual([
      { contract: 'MNQH5', bars: 10, first: '2025-03-05T15:00:00.000Z', last: '2025-03-05T15:09:00.000Z', already_stored: 0, conflicting: 0 },
    ]);
    conforms(apiError, await sendFile(frank, '/api/market/bars/preview', {}, bars), 400);
    const stored = conforms(barsOutcome, await sendFile(frank, '/api/market/bars', { contract: 'MNQH5' }, bars));
    expect(stored).toMatchObject({ added: 10, trades_updated: 1 });
    const chart = conforms(tradeChart, await frank.get(`/api/market/trades/${trade.id}/chart?padding=2`));
    expect(chart).toMatchObject({ resolution: 60, excursions: { status: 'complete', mae: { dollars: '8.00' }, mfe: { dollars: '16.00' } } });
    // The Reports' MAE/MFE report averages the stored figures of the filter's trades (one winner here); not another's.
    const report = conforms(excursionsReport, await frank.get('/api/reports/excursions?result=Win'));
    expect(report.excursions).toEqual({
      all: { trades: 1, averageMaeCents: 800, averageMfeCents: 1600, averageCapturePercent: 78.1 },
      winners: { trades: 1, averageMaeCents: 800, averageMfeCents: 1600, averageCapturePercent: 78.1 },
      losers: { trades: 0, averageMaeCents: null, averageMfeCents: null, averageCapturePercent: null },
      unmeasured: 0,
    });
    expect(conforms(excursionsReport, await frank.get('/api/reports/excursions?result=Loss')).excursions.all.trades).toBe(0);
    expect(conforms(excursionsReport, await bob.get('/api/reports/excursions')).excursions).toMatchObject({
      all: { trades: 0 },
      winners: { trades: 0 },
    });
    conforms(apiError, await frank.get('/api/reports/excursions?hour=99'), 400);
    conforms(apiError, await frank.get(`/api/market/trades/${trade.id}/chart?padding=9999`), 400);
    conforms(apiError, await bob.get(`/api/market/trades/${trade.id}/chart`), 404);
    // Bars a trader uploads are theirs alone: another trader's coverage does not show them and their delete removes none.
    expect(conforms(barsCoverage, await frank.get('/api/market/bars/coverage?contract=MNQH5')).days).toEqual([
      expect.objectContaining({ contract: 'MNQH5', bars: 10 }),
    ]);
    expect(conforms(barsCoverage, await bob.get('/api/market/bars/coverage?contract=MNQH5')).days).toEqual([]);
    expect(conforms(barsDeleted, await bob.delete('/api/market/bars?contract=MNQH5&resolution=60&day=2025-03-05'))).toMatchObject({ deleted: 0 });
    conforms(apiError, await frank.delete('/api/market/bars?contract=MNQH5&resolution=5&day=2025-03-05'), 400);
    expect(conforms(barsDeleted, await frank.delete('/api/market/bars?contract=MNQH5&resolution=60&day=2025-03-05'))).toMatchObject({
      deleted: 10,
      kept: 0,
    });
  });

  it('prop accounts: rule set, status list, account detail, ledger and its entries', async () => {
    const erin = await newTrader(app, 'erin');
    const account = await createAccount(erin, 'Combine', { kind: 'evaluation', size: 50000, starting_balance: 50000, firm: 'Topstep' });
    const template = findPropTemplate('topstep-combine-50k')!;
    conforms(ruleSet, await erin.json('PUT', `/api/prop/accounts/${account.id}/rules`, { template_id: template.id, rules: template.rules }));
    await createTrade(erin, { account_id: account.id, date: '2026-03-16', pnl: '-120.50' });
    expect(conforms(propStatusList, await erin.get('/api/prop/status')).accounts).toHaveLength(1);
    expect(conforms(propAccountDetail, await erin.get(`/api/prop/accounts/${account.id}`)).status?.balanceCents).toBe(4_987_950);
    const entry = conforms(
      ledgerEntry,
      await erin.post(`/api/prop/accounts/${account.id}/ledger`, { kind: 'evaluation-fee', amount: '49', occurred_on: '2026-03-02' }),
      201,
    );
    conforms(ledgerEntry, await erin.patch(`/api/prop/ledger/${entry.id}`, { note: 'Combine' }));
    conforms(ledger, await erin.get('/api/prop/ledger'));
    conforms(apiError, await bob.get(`/api/prop/accounts/${account.id}`), 404);
    conforms(apiError, await erin.json('PUT', `/api/prop/accounts/${account.id}/rules`, { rules: { minTradingDays: -1 } }), 400);
  });
  it('broker connections: test, connect, list, map, sync, replace the key, remove', async () => {
    const input = { user_name: 'contract.px', api_key: 'contract-key-42' };
    expect(conforms(connectionTest, await alice.post('/api/connections/test', input)).accounts.map((a) => a.name)).toEqual(['CONTRACT-8001']);
    conforms(apiError, await alice.post('/api/connections/test', { ...input, api_key: 'wrong' }), 400);
    const connection = conforms(brokerConnection, await alice.post('/api/connections', input), 201);
    conforms(apiError, await alice.post('/api/connections', input), 409);
    expect(conforms(brokerConnectionList, await alice.get('/api/connections')).connections.map((c) => c.id)).toEqual([connection.id]);
    conforms(apiError, await alice.post(`/api/connections/${connection.id}/sync`), 400);
    const journal = await createAccount(alice, 'Contract Combine');
    const mapped = conforms(
      brokerConnection,
      await alice.patch(`/api/connections/${connection.id}/broker-accounts/${connection.accounts[0]!.id}`, {
        account_id: journal.id,
        sync_from: '2026-03-02',
      }),
    );
    expect(mapped.accounts[0]).toMatchObject({ account_id: journal.id, sync_from: '2026-03-02' });
    // The prop-account offer taken while mapping (the account's balance says 50K), and a template that does not exist.
    const brokerPath = `/api/connections/${connection.id}/broker-accounts/${connection.accounts[0]!.id}`;
    conforms(apiError, await alice.patch(brokerPath, { prop: { template_id: 'no-such-plan' } }), 400);
    expect(
      conforms(brokerConnection, await alice.patch(brokerPath, { prop: { template_id: mapped.accounts[0]!.suggested_template_id } })).accounts[0],
    ).toMatchObject({
      account_id: journal.id,
      suggested_template_id: 'topstep-combine-50k',
    });
    const started = conforms(brokerConnection, await alice.post(`/api/connections/${connection.id}/sync`), 202);
    expect(started.sync.running).toBe(true);
    await app.server.connections.syncs.current(connection.id);
    const done = conforms(brokerConnection, await alice.get(`/api/connections/${connection.id}`));
    expect(done.last_outcome).toMatchObject({ status: 'ok', added: 0 });
    expect(conforms(brokerConnection, await alice.patch(`/api/connections/${connection.id}`, { api_key: 'contract-key-42' })).status).toBe(
      'connected',
    );
    conforms(apiError, await bob.get(`/api/connections/${connection.id}`), 404);
    expect((await alice.delete(`/api/connections/${connection.id}`)).status).toBe(204);
  });

  it('the public config, health and onboarding', async () => {
    const config = conforms(appConfig, await app.client().get('/api/config'));
    expect(config.ai).toEqual({ configured: false, model: null, reasoningModel: null });
    expect(conforms(health, await app.client().get('/api/health'))).toEqual({ ok: true, database: backend });
    const erin = await newTrader(app, 'erin');
    expect(typeof conforms(onboardingResult, await erin.post('/api/onboarding', { time_zone: 'Europe/Madrid' })).created).toBe('boolean');
    conforms(apiError, await app.client().post('/api/onboarding', { time_zone: 'Europe/Madrid' }), 401);
    conforms(apiError, await erin.post('/api/onboarding', { time_zone: 'Nowhere/Else' }), 400);
    expect(conforms(onboardingResult, await erin.post('/api/onboarding')).created).toBe(false);
  });
});

/**
 * The endpoints that need an AI provider, and the account's own data: every streamed event of a chat
 * answer, a DeepThink answer and a note draft is parsed against its contract, as are the conversations, the export,
 * the account deletion and the captcha check.
 */
describe.each(backends())('the AI, account and captcha endpoints answer in the shape of their contract on %s', (backend) => {
  let app: TestApp;
  let provider: AiServer;

  beforeAll(async () => {
    provider = await startAiServer();
    app = await startTestApp({ backend, env: aiEnv(provider, { AI_RATE_LIMIT: '100' }) });
  });
  afterAll(async () => {
    await app?.close();
    await provider?.close();
  });

  it('chat: conversations, a streamed answer with a tool, its stored messages, rename, clear and delete', async () => {
    const client = await newTrader(app, 'chat-contract');
    await createTrade(client, { date: '2026-03-09', period: 'AM', symbol: 'NQ', pnl: 100 });
    await createTrade(client, { date: '2026-03-10', period: 'PM', symbol: 'ES', pnl: -40 });
    const session = conforms(chatSession, await client.get('/api/chat/sessions/current'));

    provider.reply({ toolCalls: [{ name: 'get_pnl_breakdown', arguments: { by: 'session' } }] }, { text: 'AM beats PM.' }, { text: 'Sessions' });
    const streamed = await postSse(client, '/api/chat', { sessionId: session.id, message: 'Which session pays?' });
    expect(streamed.contentType).toContain('text/event-stream');
    expect(streamed.events.at(-1)).toBe('[DONE]');
    const events = streamed.events.slice(0, -1).map((e) => chatEvent.parse(e));
    const types = new Set(events.map((e) => e.type));
    for (const type of ['user', 'tool', 'source', 'text', 'done', 'title'] as const) expect(types.has(type), type).toBe(true);
    const source = events.find((e) => e.type === 'source');
    expect(source?.type === 'source' && source.chart?.points).toEqual([
      { label: 'AM', cents: 10000 },
      { label: 'PM', cents: -4000 },
    ]);

    const messages = conforms(chatMessageList, await client.get(`/api/chat/sessions/${session.id}/messages`));
    expect(messages.map((m) => m.isUser)).toEqual([true, false]);
    expect(conforms(chatSessionList, await client.get('/api/chat/sessions')).map((s) => s.id)).toContain(session.id);
    expect(conforms(chatSession, await client.patch(`/api/chat/sessions/${session.id}`, { title: 'Sessions review' })).title).toBe('Sessions review');
    expect(conforms(chatSession, await client.post(`/api/chat/sessions/${session.id}/clear`)).last_message).toBeNull();
    const fresh = conforms(chatSession, await client.post('/api/chat/sessions'), 200);
    expect(fresh.id).toBe(session.id);
    const deleted = conforms(deletedChatSession, await client.delete(`/api/chat/sessions/${session.id}`));
    expect(deleted.deleted).toBe(session.id);
    expect(deleted.next.id).not.toBe(session.id);
  });

  it('DeepThink: reasoning and answer deltas, the stored message and the new title', async () => {
    const client = await newTrader(app, 'deepthink-contract');
    const session = conforms(chatSession, await client.get('/api/chat/sessions/current'));
    provider.reply({ reasoning: 'Compare sessions.', text: 'AM wins.' }, { text: 'Session choice' });
    const streamed = await postSse(client, '/api/deepthink', { message: 'Which session should I drop?', history: [], sessionId: session.id });
    expect(streamed.events.at(-1)).toBe('[DONE]');
    const events = streamed.events.slice(0, -1).map((e) => deepThinkEvent.parse(e));
    expect(
      events
        .filter((e) => e.isReasoning)
        .map((e) => e.content)
        .join(''),
    ).toBe('Compare sessions.');
    expect(
      events
        .filter((e) => e.content !== undefined && !e.isReasoning)
        .map((e) => e.content)
        .join(''),
    ).toBe('AM wins.');
    expect(events.find((e) => e.message)?.message).toMatchObject({ mode: 'deepthink', text: 'AM wins.', reasoning: 'Compare sessions.' });
    expect(events.find((e) => e.title)?.title?.id).toBe(session.id);
  });

  it("notes: the draft's streamed events, and its answer without streaming", async () => {
    const client = await newTrader(app, 'draft-contract');
    provider.reply({ chunks: ['## What went well\n\n', '- Waited'] });
    const streamed = await postSse(client, '/api/notes/draft', { title: 'Review', content: '', instruction: 'Draft a review' });
    expect(streamed.events.at(-1)).toBe('[DONE]');
    const events = streamed.events.slice(0, -1).map((e) => draftEvent.parse(e));
    expect(
      events
        .filter((e) => e.type === 'text')
        .map((e) => (e.type === 'text' ? e.delta : ''))
        .join(''),
    ).toBe('## What went well\n\n- Waited');
    expect(events.at(-1)?.type).toBe('done');
    // A provider that fails twice (the request and its retry) ends the stream with an error event.
    provider.reply({ status: 500 }, { status: 500 });
    const failed = await postSse(client, '/api/notes/draft', { title: 'Review', content: '', instruction: 'Draft a review' });
    expect(
      failed.events
        .filter((e) => e !== '[DONE]')
        .map((e) => draftEvent.parse(e))
        .at(-1)?.type,
    ).toBe('error');
    provider.reply({ text: 'A plain draft.' });
    expect(conforms(draftResult, await client.post('/api/notes/draft', { title: 'Review', content: '', instruction: 'Draft a review' })).text).toBe(
      'A plain draft.',
    );
  });

  it('reports: overview, equity, a breakdown, the heatmap, the calendar, a distribution and the filter options', async () => {
    const client = await newTrader(app, 'reports-contract');
    await createTrade(client, { date: '2026-03-09', period: 'AM', symbol: 'NQ', pnl: 120, commission: 4, tags: ['A+'], risk_amount: 60 });
    await createTrade(client, { date: '2026-03-10', period: 'PM', symbol: 'ES', pnl: -40.5 });
    const overview = conforms(overviewReport, await client.get('/api/reports/overview?range=custom&from=2026-03-01'));
    expect(overview.overview).toMatchObject({ trades: 2, netCents: 7950, maxConsecutiveLosses: 1 });
    const equity = conforms(equityReport, await client.get('/api/reports/equity'));
    expect(equity.equity.byTrade.map((p) => p.equityCents)).toEqual([12_000, 7_950]);
    // In R: the NQ trade's $120 on a $60 plan is +2R; the ES trade has no plan and is counted apart.
    expect(equity.r).toMatchObject({
      byTrade: [{ index: 1, tradeDate: '2026-03-09', equityR: 2, drawdownR: 0 }],
      tradesWithRisk: 1,
      tradesWithoutRisk: 1,
      days: 1,
    });
    expect(
      conforms(breakdownReport, await client.get('/api/reports/breakdown?by=instrument&tag=A%2B')).breakdown.rows.map((r) => [r.key, r.r.totalR]),
    ).toEqual([['NQ', 2]]);
    expect(conforms(breakdownReport, await client.get('/api/reports/breakdown?by=instrument')).breakdown.tradesWithoutRisk).toBe(1);
    expect(conforms(heatmapReport, await client.get('/api/reports/heatmap')).heatmap).toMatchObject({
      cells: [],
      withoutTime: 2,
      tradesWithoutRisk: 0,
    });
    const calendar = conforms(calendarReport, await client.get('/api/reports/calendar')).calendar;
    expect([calendar.year, calendar.r, calendar.days.map((d) => d.r.totalR)]).toEqual([
      2026,
      { tradesWithRisk: 1, tradesWithoutRisk: 1, totalR: 2 },
      [2, null],
    ]);
    conforms(distributionReport, await client.get('/api/reports/distribution?of=pnl'));
    const inR = conforms(distributionReport, await client.get('/api/reports/distribution?of=r')).distribution;
    expect([inR.buckets.map((b) => [b.label, b.from, b.to, b.trades]), inR.excluded]).toEqual([[['2R to 2.5R', 2, 2.5, 1]], 1]);
    expect(conforms(reportOptions, await client.get('/api/reports/options')).symbol).toEqual(['ES', 'NQ']);
    conforms(apiError, await client.get('/api/reports/overview?hour=99'), 400);
  });

  it('account: the export of everything, the deletion, and the captcha check', async () => {
    const client = await newTrader(app, 'export-contract');
    const trade = await createTrade(client, { date: '2026-03-09', period: 'AM', symbol: 'NQ', pnl: 12.5 });
    const exported = conforms(accountExport, await client.get('/api/account/export'));
    expect(exported.tables.trades?.map((row) => row.id)).toEqual([trade.id]);
    conforms(apiError, await client.json('DELETE', '/api/account', { email: 'someone-else@example.com' }), 400);
    const me = exported.user.email;
    expect(conforms(accountDeleted, await client.json('DELETE', '/api/account', { email: me })).deleted).toBe(true);
    // No captcha configured on this server: every token passes, as the sign-up form expects.
    expect(conforms(captchaVerdict, await app.client().post('/api/verify-recaptcha', { token: 'any' }))).toEqual({ success: true });
    conforms(apiError, await app.client().post('/api/verify-recaptcha', { token: '' }), 400);
  });
});
