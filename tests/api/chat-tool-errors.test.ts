import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getTodayInZone } from '../../src/domain/dates';
import { TOOL_FAILED } from '../../src/server/features/chat/tools/guard';
import { aiEnv, startAiServer, type AiServer } from '../support/ai-server';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { postSse } from '../support/sse';
import { createTrade, newTrader } from './trades-support';

/**
 * What the AI provider reads when a tool call goes wrong. A tool call with
 * {"from":"0000-01-01","to":"9999-12-31"} gave the model `Failed query: select ... params: <the trader's id>, ...`.
 * Arguments are checked and refused in one short line naming the argument; a failure of ours reaches the model in the
 * trader's terms, and its details go to the server log only.
 */
describe.each(backends())('the AI provider never reads SQL, ids or stacks from a tool on %s', (backend) => {
  let app: TestApp;
  let provider: AiServer;

  beforeAll(async () => {
    provider = await startAiServer();
    app = await startTestApp({ backend, env: aiEnv(provider, { AI_RATE_LIMIT: '200' }) });
  });
  afterAll(async () => {
    await app?.close();
    await provider?.close();
  });
  beforeEach(() => provider.clear());

  async function trader(): Promise<{ client: ApiClient; sessionId: string; userId: string }> {
    const client = await newTrader(app, 'tools');
    const userId = (await client.get('/api/auth/get-session')).body.user.id as string;
    await createTrade(client, { date: getTodayInZone(new Date(), 'America/New_York'), symbol: 'NQ', pnl: '25', notes: 'Waited for the retest' });
    return { client, sessionId: (await client.get('/api/chat/sessions/current')).body.id, userId };
  }

  /** Every tool result the provider received, in order: parsed, or as the text it was (the SDK's error text). */
  const toolResults = () =>
    provider
      .completions()
      .flatMap((c) => (c.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'tool'))
      .map((m) => {
        try {
          return JSON.parse(m.content);
        } catch {
          return m.content;
        }
      });

  /** Nothing the provider received holds SQL, the trader's id or a stack frame. */
  function expectNothingLeaked(userId: string) {
    const sent = JSON.stringify(provider.requests.map((r) => r.body));
    expect(sent).not.toContain(userId);
    expect(sent).not.toMatch(/failed query|\bselect\b.*\bfrom\b|params:/i);
    expect(sent).not.toMatch(/\bat [\w.<>]+ \(|node_modules|\.ts:\d+/);
  }

  it('refuses malformed arguments with one short line naming the argument', async () => {
    const { client, sessionId, userId } = await trader();
    provider.reply(
      {
        toolCalls: [
          { name: 'get_statistics', arguments: { from: '0000-01-01', to: '9999-12-31' } },
          { name: 'get_notes_and_reflections', arguments: { from: '2026-01-01', to: '2026-02-30' } },
          { name: 'find_trades', arguments: { limit: 'all of them' } },
          { name: 'get_pnl_breakdown', arguments: { by: 'moon phase' } },
          { name: 'get_statistics', arguments: { symbol: 'N\u0000Q' } },
        ],
      },
      { text: 'I could not read those dates.' },
      { text: 'Dates' },
    );
    const { status } = await postSse(client, '/api/chat', { sessionId, message: 'How did I trade from year 0 to 9999?' });
    expect(status).toBe(200);
    const results = toolResults();
    expect(results).toEqual([
      { error: 'from: must be a date as yyyy-MM-dd' },
      { error: 'to: must be a date as yyyy-MM-dd' },
      { error: expect.stringMatching(/^limit: /) },
      { error: expect.stringMatching(/^by: /) },
      { error: 'symbol: must not contain NUL characters' },
    ]);
    for (const result of results) expect(result.error.length).toBeLessThan(200);
    expectNothingLeaked(userId);
    // A good call in the same conversation still answers with figures.
    provider.reply({ toolCalls: [{ name: 'get_statistics', arguments: { from: '0001-01-01', to: '9999-12-31' } }] }, { text: 'One trade.' });
    await postSse(client, '/api/chat', { sessionId, message: 'And over all time?' });
    expect(toolResults().at(-1)).toMatchObject({ trades: 1, net_pnl: '$25.00' });
  });

  it("tells the model a failed query in the trader's terms and logs the details without the trader's values", async () => {
    const { client, sessionId, userId } = await trader();
    const day = getTodayInZone(new Date(), 'America/New_York');
    // The database refuses the notes tool's query, as it would a broken migration or a lost connection.
    await app.server.database.db.execute(sql`revoke select on trade_reflections from edgebook_app`);
    try {
      // Asked twice: once streaming, and again by a provider that retries the tool after a failed stream.
      const call = { toolCalls: [{ name: 'get_notes_and_reflections', arguments: { from: day, to: day } }] };
      provider.reply(call, call, { text: 'I could not read your notes just now.' }, { text: 'Notes' });
      const { events } = await postSse(client, '/api/chat', { sessionId, message: 'What did I write about my trades today?' });
      expect(events.find((e: any) => e.type === 'done')).toBeDefined();
    } finally {
      await app.server.database.db.execute(sql`grant select on trade_reflections to edgebook_app`);
    }
    const results = toolResults();
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) expect(result).toEqual({ error: TOOL_FAILED });
    expectNothingLeaked(userId);

    const logged = app.logs.filter((l) => l.msg === 'chat tool failed');
    expect(logged.length).toBeGreaterThan(0);
    expect(logged[0]).toMatchObject({ tool: 'get_notes_and_reflections', error: { query: expect.stringMatching(/trade_reflections/) } });
    // The log has the failure, not the trader's values: the query's parameters (their id among them) stay out.
    expect(JSON.stringify(logged)).not.toContain(userId);
  });
});
