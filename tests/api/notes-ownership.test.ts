import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachments, notes, noteTags } from '../../src/server/db/schema';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { createTrade, newTrader } from './trades-support';
import { createFolder, createNote, listNotes, PNG_BYTES, upsertTag, uploadAttachment } from './notes-support';

/**
 * A note, folder, tag, attachment or link of another trader is never read,
 * changed, linked or attached to. Bob aims every notes-layer endpoint at Alice's ids; each answer is a 404, a 400
 * or no effect, and Alice's data is the same afterwards. Underneath the API, the composite (id, user_id) foreign
 * keys refuse such links even to a query that forgets its checks.
 */
describe.each(backends())("another trader's ids through every notes-layer endpoint on %s", (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceId: string;
  let bobId: string;
  const a = {} as { folder: string; tag: string; note: string; trade: string; attachment: string; upload: string; uploadUrl: string; link: string };
  const b = {} as { folder: string; tag: string; note: string; trade: string; link: string };
  let before: Awaited<ReturnType<typeof snapshot>>;

  async function snapshot(client: ApiClient) {
    const allNotes = await listNotes(client);
    return {
      notes: allNotes,
      bodies: await Promise.all(allNotes.map(async (n) => (await client.get(`/api/notes/${n.id}`)).body)),
      folders: (await client.get('/api/note-folders')).body,
      tags: (await client.get('/api/tags')).body,
      links: (await client.get('/api/quick-links')).body,
      journal: (await client.get('/api/journal/days')).body,
      tradeDetails: (await client.get(`/api/trade-details/${a.trade}`)).body,
    };
  }

  const userId = async (client: ApiClient) => (await client.get('/api/auth/get-session')).body.user.id as string;

  beforeAll(async () => {
    app = await startTestApp({ backend });
    [alice, bob] = await Promise.all([newTrader(app, 'alice'), newTrader(app, 'bob')]);
    [aliceId, bobId] = [await userId(alice), await userId(bob)];
    a.folder = (await createFolder(alice, 'Alice private')).id;
    a.tag = (await upsertTag(alice, 'alice-tag')).id;
    a.trade = (await createTrade(alice, { symbol: 'ALICE', pnl: 500, date: '2025-03-03' })).id;
    a.note = (
      await createNote(alice, { title: 'Alice secret plan', content: 'breakout edge', folder_id: a.folder, trade_id: a.trade, tag_ids: [a.tag] })
    ).id;
    a.attachment = (await alice.post('/api/attachments', { note_id: a.note, url: 'https://alice.test/a.png' })).body.id;
    const upload = (await uploadAttachment(alice, { trade_id: a.trade }, PNG_BYTES)).body;
    [a.upload, a.uploadUrl] = [upload.id, upload.url];
    a.link = (await alice.post('/api/quick-links', { title: 'Alice link', url: 'https://alice.test' })).body.id;
    await alice.put('/api/journal/2025-03-03', { content: 'Alice journal' });

    b.folder = (await createFolder(bob, 'Bob folder')).id;
    b.tag = (await upsertTag(bob, 'bob-tag')).id;
    b.trade = (await createTrade(bob, { symbol: 'BOB', pnl: 1, date: '2025-04-01' })).id;
    b.note = (await createNote(bob, { title: 'Bob note' })).id;
    b.link = (await bob.post('/api/quick-links', { title: 'Bob link', url: 'https://bob.test' })).body.id;
    before = await snapshot(alice);
  });
  afterAll(() => app?.close());

  it("reads: Alice's note, its attachments, files, trade page, lists filtered by her ids and searches show nothing", async () => {
    expect((await bob.get(`/api/notes/${a.note}`)).status).toBe(404);
    expect((await bob.get(`/api/attachments?note_id=${a.note}`)).status).toBe(404);
    expect((await bob.get(`/api/attachments?trade_id=${a.trade}`)).status).toBe(404);
    expect((await bob.request('GET', a.uploadUrl)).status).toBe(404);
    expect((await bob.get(`/api/trade-details/${a.trade}`)).status).toBe(404);
    for (const query of [`folder_id=${a.folder}`, `tag_id=${a.tag}`, `trade_id=${a.trade}`, 'q=secret', 'q=breakout']) {
      expect((await bob.get(`/api/notes?${query}`)).body.notes, query).toEqual([]);
    }
    expect((await listNotes(bob)).map((n) => n.id)).toEqual([b.note]);
    expect((await bob.get('/api/note-folders')).body.map((f: { id: string }) => f.id)).toEqual([b.folder]);
    expect((await bob.get('/api/tags')).body.map((t: { id: string }) => t.id)).toEqual([b.tag]);
    expect((await bob.get('/api/quick-links')).body.map((l: { id: string }) => l.id)).toEqual([b.link]);
    expect((await bob.get('/api/journal/days')).body.days.map((d: { date: string }) => d.date)).not.toContain('2025-03-03');
  });

  it("writes on Alice's rows: note, folder, attachment and link changes and deletes are 404s", async () => {
    expect((await bob.patch(`/api/notes/${a.note}`, { title: 'pwned', content: '', tag_ids: [] })).status).toBe(404);
    expect((await bob.delete(`/api/notes/${a.note}`)).status).toBe(404);
    expect((await bob.patch(`/api/note-folders/${a.folder}`, { name: 'pwned' })).status).toBe(404);
    expect((await bob.delete(`/api/note-folders/${a.folder}`)).status).toBe(404);
    expect((await bob.delete(`/api/attachments/${a.attachment}`)).status).toBe(404);
    expect((await bob.delete(`/api/attachments/${a.upload}`)).status).toBe(404);
    expect((await bob.patch(`/api/quick-links/${a.link}`, { title: 'pwned' })).status).toBe(404);
    expect((await bob.delete(`/api/quick-links/${a.link}`)).status).toBe(404);
    expect((await bob.post('/api/quick-links/reorder', { ids: [a.link] })).status).toBe(400);
  });

  it("links: Bob cannot put his note in Alice's folder, on her trade or under her tag, nor attach to her note or trade", async () => {
    const refused: Array<[string, string, unknown, string]> = [
      ['POST', '/api/notes', { title: 'x', folder_id: a.folder }, 'folder_id: Folder not found'],
      ['POST', '/api/notes', { title: 'x', trade_id: a.trade }, 'trade_id: Trade not found'],
      ['POST', '/api/notes', { title: 'x', tag_ids: [b.tag, a.tag] }, 'tag_ids: Tag not found'],
      ['PATCH', `/api/notes/${b.note}`, { folder_id: a.folder }, 'folder_id: Folder not found'],
      ['PATCH', `/api/notes/${b.note}`, { trade_id: a.trade }, 'trade_id: Trade not found'],
      ['PATCH', `/api/notes/${b.note}`, { tag_ids: [a.tag] }, 'tag_ids: Tag not found'],
      ['POST', '/api/attachments', { note_id: a.note, url: 'https://evil.test/x.png' }, 'note_id: Note not found'],
      ['POST', '/api/attachments', { trade_id: a.trade, url: 'https://evil.test/x.png' }, 'trade_id: Trade not found'],
    ];
    for (const [method, path, body, message] of refused) {
      const res = await bob.json(method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.error).toBe(message);
    }
    for (const target of [{ note_id: a.note }, { trade_id: a.trade }]) {
      const res = await uploadAttachment(bob, target, PNG_BYTES);
      expect(res.status).toBe(400);
    }
    // Bob's own note is as it was: none of the refused saves changed it in part.
    expect((await bob.get(`/api/notes/${b.note}`)).body).toMatchObject({ title: 'Bob note', folder_id: null, trade_id: null, tags: [] });
    // Same names are Bob's own rows, not Alice's.
    expect((await bob.post('/api/tags', { name: 'alice-tag' })).body.id).not.toBe(a.tag);
    expect((await bob.post('/api/note-folders', { name: 'Alice private' })).body.id).not.toBe(a.folder);
  });

  it("the database itself refuses a note, tag link or attachment that points at another trader's rows", async () => {
    const db = app.server.database;
    const refused = async (write: () => Promise<unknown>) => {
      let message = '';
      try {
        await write();
      } catch (error) {
        message = ((error as { cause?: Error }).cause ?? (error as Error)).message;
      }
      expect(message).toMatch(/foreign key|violates/i);
    };
    await refused(() => db.withUser(bobId, (tx) => tx.insert(notes).values({ userId: bobId, title: 'x', tradeId: a.trade })));
    await refused(() => db.withUser(bobId, (tx) => tx.insert(notes).values({ userId: bobId, title: 'x', folderId: a.folder })));
    await refused(() => db.withUser(bobId, (tx) => tx.insert(noteTags).values({ userId: bobId, noteId: b.note, tagId: a.tag })));
    await refused(() => db.withUser(bobId, (tx) => tx.insert(attachments).values({ userId: bobId, noteId: a.note, url: 'https://x.test' })));
    await refused(() => db.withUser(bobId, (tx) => tx.insert(attachments).values({ userId: bobId, tradeId: a.trade, url: 'https://x.test' })));
    // Even the owner connection, which bypasses row-level security, cannot cross owners.
    await refused(() => db.db.execute(sql`update notes set trade_id = ${a.trade} where id = ${b.note}`));
    // And an update without a filter under Bob's id touches only Bob's notes.
    await db.withUser(bobId, (tx) => tx.update(notes).set({ title: 'overwritten' }));
    expect((await alice.get(`/api/notes/${a.note}`)).body.title).toBe('Alice secret plan');
    expect(aliceId).not.toBe(bobId);
  });

  it('Alice sees exactly what she had', async () => {
    expect(await snapshot(alice)).toEqual(before);
    expect((await alice.request('GET', a.uploadUrl)).status).toBe(200);
  });
});
