import { expect } from 'vitest';
import type { z } from 'zod';
import { deleteAccountInput, verifyCaptchaInput } from '../../src/contract/account';
import { accountInput, accountPatch } from '../../src/contract/accounts';
import { attachmentListQuery, attachmentUrlInput } from '../../src/contract/attachments';
import { chatInput, deepThinkInput, renameInput } from '../../src/contract/chat';
import { brokerAccountUpdate, connectionInput, connectionUpdate } from '../../src/contract/connections';
import { feeScheduleInput, importQuery, previewQuery } from '../../src/contract/imports';
import { journalDayQuery, journalDaysQuery, journalNoteInput } from '../../src/contract/journal';
import { draftInput, folderInput, noteInput, noteListQuery, notePatch, tagInput } from '../../src/contract/notes';
import { playbookInput, tradePlaybookInput } from '../../src/contract/playbooks';
import { preferencesPatch } from '../../src/contract/preferences';
import { ledgerInput, ledgerPatch, ruleSetInput } from '../../src/contract/prop';
import { profilePatch } from '../../src/contract/profile';
import { importInput as quickLinkImportInput, quickLinkInput, quickLinkPatch, reorderInput } from '../../src/contract/quick-links';
import { analyzeInput, overridePatch, reflectionsQuery } from '../../src/contract/reflections';
import { compareQuery } from '../../src/contract/report-compare';
import { monthlyReviewQuery } from '../../src/contract/monthly-review';
import { savedViewInput, savedViewPatch } from '../../src/contract/saved-views';
import { shareLinkInput } from '../../src/contract/share-links';
import {
  mentorAcceptInput,
  mentorCommentInput,
  mentorInviteInput,
  mentorJournalQuery,
  mentorReplyInput,
  mentorTradesQuery,
} from '../../src/contract/mentors';
import { taskInput, taskPatch, taskStatusQuery, tasksQuery } from '../../src/contract/tasks';
import { tradePreferenceInput } from '../../src/contract/trade-preferences';
import { barsQuery, chartQuery, coverageQuery, deleteBarsQuery, fillsInput } from '../../src/contract/market';
import { breakdownQuery, calendarQuery, distributionQuery, reportFilter, rQuery } from '../../src/contract/reports';
import {
  assignInput,
  bulkEditInput,
  bulkRestoreInput,
  bulkRiskInput,
  idList,
  idsQuery,
  importInput,
  listQuery,
  statsQuery,
  tradeInput,
  tradePatch,
  unassignedCountQuery,
} from '../../src/contract/trades';
import { mistakeTagsInput, riskDefaultInput } from '../../src/contract/risk';
import { aiEnv, startAiServer } from '../support/ai-server';
import { startTestApp, uniqueEmail, type ApiClient, type Backend, type TestApp } from '../support/app';
import { startProjectXServer } from '../support/projectx-server';
import { ownFile } from './imports-support';
import { PNG_BYTES } from './notes-support';
import { createAccount, createTrade, newTrader } from './trades-support';

/**
 * The walk of every endpoint (hardening-fields.test.ts, hardening-limits.test.ts): a server with a trader who owns one of
 * everything, and for each route of the app a valid request and the contract schema its fields come from. A walk then
 * sends each field something else, one field at a time, into an otherwise valid request.
 */

/** A TradingView export of three one-minute bars: a valid bar file for the walk. */
export const BARS =
  'time,open,high,low,close,Volume\n1741012500,20000,20005,19995,20001,10\n1741012560,20001,20006,19996,20002,11\n1741012620,20002,20007,19997,20003,12\n';

/** The keys of an object schema, through the wrappers zod puts around it (refine, optional, default, pipe...). */
export function fieldsOf(schema: z.ZodType | undefined): string[] {
  let current = schema as unknown as
    { _zod: { def: { type: string; shape?: Record<string, unknown>; in?: unknown; innerType?: unknown } } } | undefined;
  while (current) {
    const def = current._zod.def;
    if (def.type === 'object') return Object.keys(def.shape ?? {});
    current = (def.type === 'pipe' ? def.in : def.innerType) as typeof current;
  }
  return [];
}

/** A past week of the economic calendar, as its feed writes it: a valid file of events for the walk. */
export const CALENDAR_FILE = JSON.stringify([{ title: 'CPI m/m', country: 'USD', date: '2025-03-05T08:30:00-05:00', impact: 'High' }]);

export const NIL = '00000000-0000-0000-0000-000000000000';

export interface Endpoint {
  /** Valid path parameters. */
  params?: () => Record<string, string>;
  /** A valid query string, and the schema whose other fields are walked too. */
  query?: () => Record<string, string>;
  querySchema?: z.ZodType;
  /** A valid JSON body, and the schema whose other fields are walked too. */
  body?: () => Record<string, unknown>;
  bodySchema?: z.ZodType;
  /** A multipart form (its file is never walked: the image check has its own tests). */
  form?: () => Record<string, string>;
  /** A raw body (the import endpoints take the file itself). */
  file?: { text: string; type: string };
}

/**
 * Messages shown to the trader as they are, because the spec words them (or the import dialog shows the parser's
 * words): they do not name the field in the text, so `fields` must.
 */
const AS_WORDED = [
  'Invalid file format: The file does not contain an array of trade data',
  'Please fill in all required fields.',
  // The broker refused the user name and key: `fields` names user_name and api_key.
  'TopstepX refused this user name and API key. Check both in TopstepX (Settings, API), then connect again.',
];
/** 400s about the trader's data rather than a field: nothing in the request is malformed. */
const NOT_A_FIELD = ['No trades to analyze'];

/** `accountId` in a path is the API's `account_id`. */
const spellings = (field: string) => [field, field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];

/** A 400's message names the field: as its own word, or as the first part of a path (`tags.0`, `Row 1: notes`). */
export function namesField(body: any, field: string): boolean {
  const message = String(body?.error ?? body?.message ?? '');
  if (NOT_A_FIELD.includes(message)) return true;
  const named = (text: string) =>
    spellings(field).some((name) => new RegExp(`(^|[^\\w])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\w]|$)`).test(text));
  if (named(message)) return true;
  const asWorded = AS_WORDED.some((words) => message.endsWith(words));
  return asWorded && Array.isArray(body?.fields) && body.fields.some((f: { field: string }) => named(f.field));
}

export interface WalkedApp {
  app: TestApp;
  /** The trader whose things the walk changes. */
  trader: ApiClient;
  /** A client of better-auth's own endpoints, signed up as `authEmail`. */
  auth: ApiClient;
  authEmail: string;
  ids: Record<string, string>;
  endpoints: Record<string, Endpoint>;
  close(): Promise<void>;
}

/** A server (with an AI provider and a broker gateway standing in) and a trader who owns one of everything. */
export async function startWalkedApp(backend: Backend): Promise<WalkedApp> {
  const ids: Record<string, string> = {};
  const provider = await startAiServer();
  provider.defaultReply = { text: 'Noted.' };
  const gateway = await startProjectXServer({ users: [{ userName: 'walker.px', apiKey: 'walker-key-123' }] });
  gateway.accounts = [
    { id: 9001, name: 'WALK-9001', balance: 50_000, canTrade: true, isVisible: true, simulated: true, active: true, userName: 'walker.px' },
  ];
  const app = await startTestApp({
    backend,
    env: aiEnv(provider, { AUTH_RATE_LIMIT: '100000', AI_RATE_LIMIT: '100000', AI_DAILY_LIMIT: '100000', PROJECTX_API_URL: gateway.url }),
  });
  const trader = await newTrader(app, 'walker');
  const authEmail = uniqueEmail('walker-auth');
  const auth = app.client();
  expect((await auth.signUp(authEmail)).status).toBe(200);
  ids.account = (await createAccount(trader, 'Walk')).id;
  ids.trade = (await createTrade(trader, { account_id: ids.account, symbol: 'NQ', pnl: 10 })).id;
  ids.task = (await trader.post('/api/tasks', { title: 'Walk task', task_date: '2025-03-03' })).body.id;
  ids.note = (await trader.post('/api/notes', { title: 'Walk note', content: 'x' })).body.id;
  ids.folder = (await trader.post('/api/note-folders', { name: 'Walk folder' })).body.id;
  ids.tag = (await trader.post('/api/tags', { name: 'walk' })).body.id;
  ids.link = (await trader.post('/api/quick-links', { title: 'Walk', url: 'https://example.com' })).body.id;
  ids.view = (await trader.post('/api/saved-views', { name: 'Walk view', filter: 'range=this-month' })).body.id;
  ids.attachment = (await trader.post('/api/attachments', { note_id: ids.note, url: 'https://example.com/a.png' })).body.id;
  ids.session = (await trader.get('/api/chat/sessions/current')).body.id;
  ids.ledger = (
    await trader.post(`/api/prop/accounts/${ids.account}/ledger`, { kind: 'evaluation-fee', amount: '49', occurred_on: '2026-03-02' })
  ).body.id;
  const connection = (await trader.post('/api/connections', { user_name: 'walker.px', api_key: 'walker-key-123' })).body;
  ids.playbook = (await trader.post('/api/playbooks', { name: 'Walk setup', rules: [{ text: 'Wait for the retest' }] })).body.id;
  ids.connection = connection.id;
  ids.brokerAccount = connection.accounts?.[0]?.id;
  // A mentor's seat both ways: the walker mentors a mentee (whose id and trade the mentor routes take), and is
  // mentored by someone whose comment the walker answers.
  const mentee = await newTrader(app, 'walk-mentee');
  const menteeAccount = (await createAccount(mentee, 'Mentee')).id;
  ids.menteeTrade = (await createTrade(mentee, { account_id: menteeAccount, symbol: 'ES', pnl: 5 })).id;
  // The journal shared too, so that the walk reaches the journal's reads past the grant.
  const menteeInvite = (await mentee.post('/api/mentor-grants', { email: 'walker@example.com', account_ids: [menteeAccount], share_journal: true }))
    .body;
  const mentorToken = new URL(menteeInvite.url).hash.slice(1);
  ids.mentee = (await trader.post('/api/mentor/accept', { token: mentorToken })).body.trader_id;
  const walkerInvite = (await trader.post('/api/mentor-grants', { email: 'walk-mentor@example.com', account_ids: [ids.account] })).body;
  ids.mentorGrant = walkerInvite.id;
  const walkMentor = await newTrader(app, 'walk-mentor');
  const walkerId = (await walkMentor.post('/api/mentor/accept', { token: new URL(walkerInvite.url).hash.slice(1) })).body.trader_id;
  ids.mentorComment = (await walkMentor.post(`/api/mentor/${walkerId}/comments`, { trade_id: ids.trade, body: 'Walk comment' })).body.id;
  for (const [name, id] of Object.entries(ids)) expect(id, name).toBeTruthy();

  const csv = ownFile('fills-with-commission.csv');
  const id = (name: string) => () => ({ id: ids[name]! });
  const endpoints: Record<string, Endpoint> = {
    'GET /api/health': {},
    'GET /api/config': {},
    'POST /api/verify-recaptcha': { body: () => ({ token: 'abc' }), bodySchema: verifyCaptchaInput },
    'GET /api/accounts': {},
    'POST /api/accounts': { body: () => ({ name: 'Walked' }), bodySchema: accountInput },
    'PATCH /api/accounts/:id': { params: id('account'), body: () => ({ name: 'Walk' }), bodySchema: accountPatch },
    'POST /api/accounts/:id/default': { params: id('account') },
    'DELETE /api/accounts/:id': { params: () => ({ id: NIL }) },
    'GET /api/preferences': {},
    'PATCH /api/preferences': { body: () => ({ theme: 'dark' }), bodySchema: preferencesPatch },
    'GET /api/trades': { query: () => ({ limit: '5' }), querySchema: listQuery },
    'GET /api/trades/stats': { query: () => ({ days: 'none' }), querySchema: statsQuery },
    'GET /api/trades/unassigned-count': { querySchema: unassignedCountQuery },
    'GET /api/trades/ids': { query: () => ({ sort: 'pnl' }), querySchema: idsQuery },
    'GET /api/trades/export': {},
    'POST /api/trades/import': {
      body: () => ({ account_id: ids.account, trades: [{ date: '2025-03-04', period: 'AM', symbol: 'ES' }] }),
      bodySchema: importInput,
    },
    'POST /api/trades/bulk-delete': { body: () => ({ ids: [NIL] }), bodySchema: idList },
    'POST /api/trades/assign': { body: () => ({ ids: [ids.trade], account_id: ids.account }), bodySchema: assignInput },
    'POST /api/trades/bulk-risk': { body: () => ({ ids: [ids.trade], risk: { kind: 'amount', amount: '100' } }), bodySchema: bulkRiskInput },
    'POST /api/trades/bulk-edit': { body: () => ({ ids: [ids.trade], action: { kind: 'setup', setup: 'Breakout' } }), bodySchema: bulkEditInput },
    'POST /api/trades/bulk-restore': {
      body: () => ({
        trades: [{ id: ids.trade, account_id: ids.account, playbook_id: null, trade_type: '', tags: [], ticked_rule_ids: [], followed_rules: null }],
      }),
      bodySchema: bulkRestoreInput,
    },
    'POST /api/trades': { body: () => ({ date: '2025-03-05', period: 'AM', symbol: 'NQ', pnl: '1.00' }), bodySchema: tradeInput },
    'GET /api/trades/:id': { params: id('trade') },
    'PATCH /api/trades/:id': { params: id('trade'), body: () => ({ symbol: 'NQ' }), bodySchema: tradePatch },
    'DELETE /api/trades/:id': { params: () => ({ id: NIL }) },
    'GET /api/trade-preferences': {},
    'POST /api/trade-preferences': { body: () => ({ type: 'tag', value: 'walked' }), bodySchema: tradePreferenceInput },
    'DELETE /api/trade-preferences': { body: () => ({ type: 'tag', value: 'walked' }), bodySchema: tradePreferenceInput },
    'GET /api/profile': {},
    'PATCH /api/profile': { body: () => ({ display_name: 'Walker' }), bodySchema: profilePatch },
    'POST /api/profile/avatar': { form: () => ({}) },
    'GET /api/profile/avatar/:file': { params: () => ({ file: 'avatar-1.png' }) },
    'GET /api/tasks': { query: () => ({ date: '2025-03-03' }), querySchema: tasksQuery },
    'GET /api/tasks/status': { query: () => ({ from: '2025-03-01', to: '2025-03-31' }), querySchema: taskStatusQuery },
    'POST /api/tasks': { body: () => ({ title: 'Walked', task_date: '2025-03-03' }), bodySchema: taskInput },
    'PATCH /api/tasks/:id': { params: id('task'), body: () => ({ completed: true }), bodySchema: taskPatch },
    'DELETE /api/tasks/:id': { params: () => ({ id: NIL }) },
    'POST /api/onboarding': {},
    'GET /api/imports/formats': {},
    'GET /api/imports/queue': {},
    'GET /api/imports/fees/:accountId': { params: () => ({ accountId: ids.account! }) },
    'PUT /api/imports/fees/:accountId': {
      params: () => ({ accountId: ids.account! }),
      body: () => ({ micro: '0.62', mini: '2.14' }),
      bodySchema: feeScheduleInput,
    },
    'POST /api/imports/fees/:accountId/apply': { params: () => ({ accountId: ids.account! }) },
    'POST /api/imports/preview': {
      query: () => ({ time_zone: 'America/New_York' }),
      querySchema: previewQuery,
      file: { text: csv, type: 'text/csv' },
    },
    'POST /api/imports': {
      query: () => ({ account_id: ids.account!, time_zone: 'America/New_York' }),
      querySchema: importQuery,
      file: { text: csv, type: 'text/csv' },
    },
    'GET /api/reflections': { query: () => ({ period: 'week' }), querySchema: reflectionsQuery },
    'GET /api/reflections/summary': { query: () => ({ period: 'week' }), querySchema: reflectionsQuery },
    'PATCH /api/reflections/:tradeId': { params: () => ({ tradeId: ids.trade! }), body: () => ({ followed_rules: true }), bodySchema: overridePatch },
    'POST /api/analyze-reflections': { body: () => ({ period: 'week' }), bodySchema: analyzeInput },
    'GET /api/account/export': {},
    'DELETE /api/account': { body: () => ({ email: 'someone-else@example.com' }), bodySchema: deleteAccountInput },
    'GET /api/chat/sessions': {},
    'GET /api/chat/sessions/current': {},
    'POST /api/chat/sessions': {},
    'GET /api/chat/sessions/:id/messages': { params: id('session') },
    'PATCH /api/chat/sessions/:id': { params: id('session'), body: () => ({ title: 'Walked' }), bodySchema: renameInput },
    'POST /api/chat/sessions/:id/clear': { params: id('session') },
    'DELETE /api/chat/sessions/:id': { params: () => ({ id: NIL }) },
    'POST /api/chat': { body: () => ({ sessionId: ids.session, message: 'How did I do?' }), bodySchema: chatInput },
    'POST /api/deepthink': { body: () => ({ message: 'How did I do?' }), bodySchema: deepThinkInput },
    'GET /api/notes': { query: () => ({ limit: '5' }), querySchema: noteListQuery },
    'POST /api/notes/draft': { body: () => ({ title: 'Plan', instruction: 'Shorter' }), bodySchema: draftInput },
    'POST /api/notes': { body: () => ({ title: 'Walked' }), bodySchema: noteInput },
    'GET /api/notes/:id': { params: id('note') },
    'PATCH /api/notes/:id': { params: id('note'), body: () => ({ title: 'Walk note' }), bodySchema: notePatch },
    'DELETE /api/notes/:id': { params: () => ({ id: NIL }) },
    'GET /api/note-folders': {},
    'POST /api/note-folders': { body: () => ({ name: 'Walked' }), bodySchema: folderInput },
    'PATCH /api/note-folders/:id': { params: id('folder'), body: () => ({ name: 'Walk folder' }), bodySchema: folderInput },
    'DELETE /api/note-folders/:id': { params: () => ({ id: NIL }) },
    'GET /api/tags': {},
    'POST /api/tags': { body: () => ({ name: 'walked' }), bodySchema: tagInput },
    'GET /api/attachments': { query: () => ({ note_id: ids.note! }), querySchema: attachmentListQuery },
    'POST /api/attachments': { body: () => ({ note_id: ids.note, url: 'https://example.com/b.png' }), bodySchema: attachmentUrlInput },
    'POST /api/attachments/upload': { form: () => ({ note_id: ids.note!, caption: 'Walked' }) },
    'GET /api/attachments/files/:file': { params: () => ({ file: 'nothing.png' }) },
    'DELETE /api/attachments/:id': { params: () => ({ id: NIL }) },
    'GET /api/journal/days': { query: () => ({}), querySchema: journalDaysQuery },
    'GET /api/journal/:date': { params: () => ({ date: '2025-03-03' }) },
    'PUT /api/journal/:date': { params: () => ({ date: '2025-03-03' }), body: () => ({ content: 'Walked' }), bodySchema: journalNoteInput },
    'GET /api/reports/overview': { query: () => ({ range: 'all-time' }), querySchema: reportFilter },
    'GET /api/reports/equity': { query: () => ({ range: 'all-time' }), querySchema: reportFilter },
    'GET /api/reports/mistakes': { query: () => ({ range: 'all-time' }), querySchema: reportFilter },
    'GET /api/reports/breakdown': { query: () => ({ by: 'instrument' }), querySchema: breakdownQuery },
    'GET /api/reports/heatmap': { query: () => ({ range: 'all-time' }), querySchema: reportFilter },
    'GET /api/reports/depth': { query: () => ({ range: 'all-time' }), querySchema: reportFilter },
    'GET /api/reports/compare': {
      query: () => ({ a: 'side=Long', b: 'side=Short', c: 'symbol=NQ', d: 'range=this-month', by: 'hour' }),
      querySchema: compareQuery,
    },
    'GET /api/reports/calendar': { query: () => ({ year: '2025' }), querySchema: calendarQuery },
    'GET /api/reports/distribution': { query: () => ({ of: 'pnl' }), querySchema: distributionQuery },
    'GET /api/reports/options': {},
    'GET /api/reports/excursions': { query: () => ({ range: 'all-time' }), querySchema: reportFilter },
    'GET /api/reports/r': { query: () => ({ range: 'all-time', q: 'NQ' }), querySchema: rQuery },
    'GET /api/reports/playbooks': { query: () => ({ range: 'all-time' }), querySchema: reportFilter },
    'GET /api/reports/monthly-review': { query: () => ({ month: '2025-03' }), querySchema: monthlyReviewQuery },
    'GET /api/playbooks': {},
    // A new name each time: a trader's playbook names are their own, and a clash would be the 400 instead.
    'POST /api/playbooks': { body: () => ({ name: `Walked ${crypto.randomUUID()}`, rules: [{ text: 'A rule' }] }), bodySchema: playbookInput },
    'GET /api/playbooks/:id': { params: id('playbook') },
    'PUT /api/playbooks/:id': { params: id('playbook'), body: () => ({ name: 'Walk setup', rules: [{ text: 'Wait' }] }), bodySchema: playbookInput },
    'DELETE /api/playbooks/:id': { params: () => ({ id: NIL }) },
    'GET /api/playbooks/:id/report': { params: id('playbook'), query: () => ({ range: 'all-time' }), querySchema: reportFilter },
    'GET /api/trade-playbooks/:id': { params: id('trade') },
    'PUT /api/trade-playbooks/:id': { params: id('trade'), body: () => ({ playbook_id: null }), bodySchema: tradePlaybookInput },
    'GET /api/trades/:id/fills': { params: id('trade') },
    'PUT /api/trades/:id/fills': {
      params: id('trade'),
      body: () => ({
        fills: [
          { time: '2025-03-03T14:35:00Z', side: 'Buy', quantity: '1', price: '20000' },
          { time: '2025-03-03T14:40:00Z', side: 'Sell', quantity: '1', price: '20010' },
        ],
      }),
      bodySchema: fillsInput,
    },
    'GET /api/market/formats': {},
    'POST /api/market/bars/preview': {
      query: () => ({ contract: 'MNQH5', time_zone: 'UTC' }),
      querySchema: barsQuery,
      file: { text: BARS, type: 'text/csv' },
    },
    'POST /api/market/bars': {
      query: () => ({ contract: 'MNQH5', time_zone: 'UTC' }),
      querySchema: barsQuery,
      file: { text: BARS, type: 'text/csv' },
    },
    'GET /api/market/bars/coverage': { query: () => ({ contract: 'MNQH5' }), querySchema: coverageQuery },
    'DELETE /api/market/bars': { query: () => ({ contract: 'MNQH5', resolution: '60', day: '2025-03-03' }), querySchema: deleteBarsQuery },
    'GET /api/market/trades/:id/chart': { params: id('trade'), query: () => ({ padding: '30' }), querySchema: chartQuery },
    'GET /api/trade-details/:id': { params: id('trade') },
    'GET /api/risk-defaults': {},
    'PUT /api/risk-defaults': { body: () => ({ account_id: ids.account, root: 'NQ', stop_points: '20' }), bodySchema: riskDefaultInput },
    'DELETE /api/risk-defaults/:id': { params: () => ({ id: NIL }) },
    'GET /api/mistake-tags': {},
    'PUT /api/mistake-tags': { body: () => ({ tags: ['FOMO'] }), bodySchema: mistakeTagsInput },
    'GET /api/connections': {},
    'POST /api/connections/test': { body: () => ({ user_name: 'walker.px', api_key: 'walker-key-123' }), bodySchema: connectionInput },
    'POST /api/connections': { body: () => ({ user_name: 'walker.px', api_key: 'walker-key-123' }), bodySchema: connectionInput },
    'GET /api/connections/:id': { params: id('connection') },
    'PATCH /api/connections/:id': { params: id('connection'), body: () => ({ api_key: 'walker-key-123' }), bodySchema: connectionUpdate },
    'DELETE /api/connections/:id': { params: () => ({ id: NIL }) },
    'PATCH /api/connections/:id/broker-accounts/:brokerAccountId': {
      params: () => ({ id: ids.connection!, brokerAccountId: ids.brokerAccount! }),
      body: () => ({ sync_from: '2025-03-03' }),
      bodySchema: brokerAccountUpdate,
    },
    'POST /api/connections/:id/sync': { params: id('connection') },
    'GET /api/economic-calendar': {},
    'GET /api/economic-calendar/news': {},
    'GET /api/economic-calendar/events': {},
    'POST /api/economic-calendar/events': { file: { text: CALENDAR_FILE, type: 'application/json' } },
    'DELETE /api/economic-calendar/events': {},
    'GET /api/quick-links': {},
    'POST /api/quick-links': { body: () => ({ title: 'Walked', url: 'https://example.org' }), bodySchema: quickLinkInput },
    'POST /api/quick-links/reorder': { body: () => ({ ids: [ids.link] }), bodySchema: reorderInput },
    'POST /api/quick-links/import': { body: () => ({ links: [], only_if_empty: true }), bodySchema: quickLinkImportInput },
    'POST /api/quick-links/defaults': {},
    'PATCH /api/quick-links/:id': { params: id('link'), body: () => ({ title: 'Walk' }), bodySchema: quickLinkPatch },
    'DELETE /api/quick-links/:id': { params: () => ({ id: NIL }) },
    'GET /api/share-links': {},
    'POST /api/share-links': {
      body: () => ({ kind: 'trade', target: ids.trade, expires: 'day', hide_amounts: true, hide_accounts: false, include_notes: false }),
      bodySchema: shareLinkInput,
    },
    'DELETE /api/share-links/:id': { params: () => ({ id: NIL }) },
    'GET /api/mentor-grants': {},
    'POST /api/mentor-grants': { body: () => ({ email: 'walked-mentor@example.com', account_ids: [ids.account] }), bodySchema: mentorInviteInput },
    'DELETE /api/mentor-grants/:id': { params: () => ({ id: NIL }) },
    'GET /api/mentor-comments': {},
    'POST /api/mentor-comments/seen': {},
    'POST /api/mentor-comments/:id/reply': { params: id('mentorComment'), body: () => ({ body: 'Walked reply' }), bodySchema: mentorReplyInput },
    'GET /api/mentor-views': {},
    'POST /api/mentor-views/seen': {},
    // The walker accepted this invite already: accepting it again is its own grant's answer.
    'POST /api/mentor/accept': { body: () => ({ token: mentorToken }), bodySchema: mentorAcceptInput },
    'GET /api/mentor/traders': {},
    'GET /api/mentor/:traderId/trades': { params: () => ({ traderId: ids.mentee! }), query: () => ({ limit: '5' }), querySchema: mentorTradesQuery },
    'GET /api/mentor/:traderId/trades/:id': { params: () => ({ traderId: ids.mentee!, id: ids.menteeTrade! }) },
    // A mentor's Reports: the same queries as the trader's own, for the trader who granted the walker.
    'GET /api/mentor/:traderId/reports/overview': {
      params: () => ({ traderId: ids.mentee! }),
      query: () => ({ range: 'all-time' }),
      querySchema: reportFilter,
    },
    'GET /api/mentor/:traderId/reports/equity': {
      params: () => ({ traderId: ids.mentee! }),
      query: () => ({ range: 'all-time' }),
      querySchema: reportFilter,
    },
    'GET /api/mentor/:traderId/reports/mistakes': {
      params: () => ({ traderId: ids.mentee! }),
      query: () => ({ range: 'all-time' }),
      querySchema: reportFilter,
    },
    'GET /api/mentor/:traderId/reports/breakdown': {
      params: () => ({ traderId: ids.mentee! }),
      query: () => ({ by: 'instrument' }),
      querySchema: breakdownQuery,
    },
    'GET /api/mentor/:traderId/reports/heatmap': {
      params: () => ({ traderId: ids.mentee! }),
      query: () => ({ range: 'all-time' }),
      querySchema: reportFilter,
    },
    'GET /api/mentor/:traderId/reports/depth': {
      params: () => ({ traderId: ids.mentee! }),
      query: () => ({ range: 'all-time' }),
      querySchema: reportFilter,
    },
    'GET /api/mentor/:traderId/reports/compare': {
      params: () => ({ traderId: ids.mentee! }),
      query: () => ({ a: 'side=Long', b: 'side=Short', c: 'symbol=NQ', d: 'range=this-month', by: 'hour' }),
      querySchema: compareQuery,
    },
    'GET /api/mentor/:traderId/reports/calendar': {
      params: () => ({ traderId: ids.mentee! }),
      query: () => ({ year: '2025' }),
      querySchema: calendarQuery,
    },
    'GET /api/mentor/:traderId/reports/distribution': {
      params: () => ({ traderId: ids.mentee! }),
      query: () => ({ of: 'pnl' }),
      querySchema: distributionQuery,
    },
    'GET /api/mentor/:traderId/reports/options': { params: () => ({ traderId: ids.mentee! }) },
    'GET /api/mentor/:traderId/reports/excursions': {
      params: () => ({ traderId: ids.mentee! }),
      query: () => ({ range: 'all-time' }),
      querySchema: reportFilter,
    },
    'GET /api/mentor/:traderId/reports/r': {
      params: () => ({ traderId: ids.mentee! }),
      query: () => ({ range: 'all-time', q: 'NQ' }),
      querySchema: rQuery,
    },
    'GET /api/mentor/:traderId/reports/playbooks': {
      params: () => ({ traderId: ids.mentee! }),
      query: () => ({ range: 'all-time' }),
      querySchema: reportFilter,
    },
    'GET /api/mentor/:traderId/reports/monthly-review': {
      params: () => ({ traderId: ids.mentee! }),
      query: () => ({ month: '2025-03' }),
      querySchema: monthlyReviewQuery,
    },
    'GET /api/mentor/:traderId/reflect': {
      params: () => ({ traderId: ids.mentee! }),
      query: () => ({ period: 'week' }),
      querySchema: reflectionsQuery,
    },
    'GET /api/mentor/:traderId/journal': { params: () => ({ traderId: ids.mentee! }), query: () => ({}), querySchema: mentorJournalQuery },
    'GET /api/mentor/:traderId/journal/:date': {
      params: () => ({ traderId: ids.mentee!, date: '2025-03-03' }),
      query: () => ({ account: 'all' }),
      querySchema: journalDayQuery,
    },
    'GET /api/mentor/:traderId/prop': { params: () => ({ traderId: ids.mentee! }) },
    'GET /api/mentor/:traderId/attachments/files/:file': { params: () => ({ traderId: ids.mentee!, file: 'nothing.png' }) },
    'GET /api/mentor/:traderId/comments': { params: () => ({ traderId: ids.mentee! }) },
    'POST /api/mentor/:traderId/comments': {
      params: () => ({ traderId: ids.mentee! }),
      body: () => ({ trade_id: ids.menteeTrade, body: 'Walked comment' }),
      bodySchema: mentorCommentInput,
    },
    'GET /api/saved-views': {},
    // A name of its own each time, so that a walk's valid requests never collide with the last one's view.
    'POST /api/saved-views': { body: () => ({ name: `Walked ${crypto.randomUUID().slice(0, 8)}`, filter: 'symbol=NQ' }), bodySchema: savedViewInput },
    'PATCH /api/saved-views/:id': { params: id('view'), body: () => ({ name: 'Walk view' }), bodySchema: savedViewPatch },
    'DELETE /api/saved-views/:id': { params: () => ({ id: NIL }) },
    'GET /api/prop/status': {},
    'GET /api/prop/accounts/:id': { params: id('account') },
    'PUT /api/prop/accounts/:id/rules': { params: id('account'), body: () => ({ rules: { profitTargetCents: 300_000 } }), bodySchema: ruleSetInput },
    'DELETE /api/prop/accounts/:id/rules': { params: () => ({ id: NIL }) },
    'POST /api/prop/accounts/:id/ledger': {
      params: id('account'),
      body: () => ({ kind: 'payout', amount: '10', occurred_on: '2026-03-02' }),
      bodySchema: ledgerInput,
    },
    'GET /api/prop/ledger': {},
    'PATCH /api/prop/ledger/:id': { params: id('ledger'), body: () => ({ note: 'Walk' }), bodySchema: ledgerPatch },
    'DELETE /api/prop/ledger/:id': { params: () => ({ id: NIL }) },
  };
  const close = async () => {
    await app.close();
    await provider.close();
    await gateway.close();
  };
  return { app, trader, auth, authEmail, ids, endpoints, close };
}

/**
 * What a change is made to: a path parameter, a query parameter, a field of the body (a dotted path such as
 * `fills.0.price` reaches into it, making the objects on the way), the whole body, or a field of a multipart form.
 */
export interface Change {
  where: string;
  field: string;
  value: unknown;
}

/** `value` with `path` set to `field`, as a copy; a missing object on the way is made (an array for a numeric key). */
function withField(value: unknown, path: string[], field: unknown): unknown {
  if (path.length === 0) return field;
  const [key, ...rest] = path as [string, ...string[]];
  const copy: any = Array.isArray(value) ? [...value] : value !== null && typeof value === 'object' ? { ...value } : /^\d+$/.test(key) ? [] : {};
  copy[key] = withField(copy[key], rest, field);
  return copy;
}

export interface Sent {
  status: number;
  body: any;
  text: string;
}

export async function send(client: ApiClient, route: string, e: Endpoint, change: Change): Promise<Sent> {
  const [method, template] = route.split(' ') as [string, string];
  const params = { ...e.params?.() };
  const query: Record<string, string> = { ...e.query?.() };
  let body: unknown = e.body?.();
  let form = e.form?.();
  if (change.where === 'params') params[change.field] = String(change.value);
  if (change.where === 'query') query[change.field] = String(change.value);
  if (change.where === 'body') body = withField(body, change.field.split('.'), change.value);
  if (change.where === 'whole') body = change.value;
  if (change.where === 'form') form = { ...form, [change.field]: String(change.value) };
  const path = template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const search = new URLSearchParams(query).toString();
  const url = `${path}${search ? `?${search}` : ''}`;
  let res: Response;
  if (form) {
    const data = new FormData();
    data.set('file', new Blob([new Uint8Array(PNG_BYTES)], { type: 'image/png' }), 'chart.png');
    for (const [key, value] of Object.entries(form)) data.set(key, value);
    res = await fetch(`${client.baseUrl}${url}`, { method, headers: { cookie: client.cookieHeader, origin: client.baseUrl }, body: data });
  } else if (e.file) {
    res = await client.send(method, url, e.file.text, { 'content-type': e.file.type });
  } else {
    res = await client.request(method, url, body === undefined && method !== 'GET' && method !== 'DELETE' ? {} : body);
  }
  const text = await res.text();
  let parsed: any = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: res.status, body: parsed, text };
}
