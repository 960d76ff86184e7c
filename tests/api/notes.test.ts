import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { createTrade, newTrader } from './trades-support';
import { createFolder, createNote, listNotes, upsertTag } from './notes-support';

/**
 * The notebook over HTTP: folders, tags unique per trader, notes with their tag sets, the list's filters and
 * pages, the linked trade's P&L, full-text search ranked, and validation naming the field.
 */
describe.each(backends())('notebook API on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;

  beforeAll(async () => {
    app = await startTestApp({ backend });
    alice = await newTrader(app, 'alice');
  });
  afterAll(() => app?.close());

  describe('folders', () => {
    it('creates folders, lists them by name with their note counts, and refuses a blank or duplicate name', async () => {
      const trader = await newTrader(app, 'folders');
      expect((await trader.get('/api/note-folders')).body).toEqual([]);
      const setups = await createFolder(trader, '  Setups  ');
      expect(setups).toMatchObject({ name: 'Setups', note_count: 0 });
      await createFolder(trader, 'Psychology');
      await createNote(trader, { title: 'ORB', folder_id: setups.id });

      const blank = await trader.post('/api/note-folders', { name: '   ' });
      expect(blank.status).toBe(400);
      expect(blank.body.error).toBe('name: Folder name is required');
      expect((await trader.post('/api/note-folders', {})).status).toBe(400);
      const duplicate = await trader.post('/api/note-folders', { name: 'Setups' });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.error).toBe('A folder named "Setups" already exists');

      const list = (await trader.get('/api/note-folders')).body;
      expect(list.map((f: { name: string; note_count: number }) => [f.name, f.note_count])).toEqual([
        ['Psychology', 0],
        ['Setups', 1],
      ]);
    });

    it('renames a folder (not onto another one) and deleting it keeps its notes, outside any folder', async () => {
      const trader = await newTrader(app, 'folders');
      const a = await createFolder(trader, 'A');
      await createFolder(trader, 'B');
      const note = await createNote(trader, { title: 'kept', content: 'body', folder_id: a.id });
      const renamed = await trader.patch(`/api/note-folders/${a.id}`, { name: 'Playbook' });
      expect(renamed.status).toBe(200);
      expect(renamed.body.name).toBe('Playbook');
      expect((await trader.patch(`/api/note-folders/${a.id}`, { name: 'B' })).status).toBe(409);
      expect((await trader.patch(`/api/note-folders/${a.id}`, { name: 'Playbook' })).status).toBe(200);

      expect((await trader.delete(`/api/note-folders/${a.id}`)).status).toBe(204);
      expect((await trader.delete(`/api/note-folders/${a.id}`)).status).toBe(404);
      const after = await trader.get(`/api/notes/${note.id}`);
      expect(after.status).toBe(200);
      expect(after.body).toMatchObject({ title: 'kept', content: 'body', folder_id: null });
      expect((await listNotes(trader, 'folder_id=none')).map((n) => n.id)).toEqual([note.id]);
    });
  });

  describe('tags', () => {
    it('are unique per trader: the same name returns the same tag, another trader gets their own', async () => {
      const trader = await newTrader(app, 'tags');
      const first = await trader.post('/api/tags', { name: 'FOMO' });
      expect(first.status).toBe(201);
      const again = await trader.post('/api/tags', { name: ' FOMO ' });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      await upsertTag(trader, 'A+ setup');
      expect((await trader.get('/api/tags')).body.map((t: { name: string }) => t.name)).toEqual(['A+ setup', 'FOMO']);

      const other = await newTrader(app, 'tags');
      const theirs = await other.post('/api/tags', { name: 'FOMO' });
      expect(theirs.status).toBe(201);
      expect(theirs.body.id).not.toBe(first.body.id);
    });

    it('two traders adding the same tag at once each get exactly one', async () => {
      const trader = await newTrader(app, 'tags');
      const results = await Promise.all(Array.from({ length: 6 }, () => trader.post('/api/tags', { name: 'Revenge' })));
      expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect((await trader.get('/api/tags')).body).toHaveLength(1);
    });

    it('refuses a blank or too long name, naming the field', async () => {
      const blank = await alice.post('/api/tags', { name: ' ' });
      expect(blank.status).toBe(400);
      expect(blank.body.error).toBe('name: Tag name is required');
      expect((await alice.post('/api/tags', { name: 'x'.repeat(51) })).body.error).toBe('name: Tag name must be at most 50 characters');
    });
  });

  describe('notes', () => {
    it('creates a blank note on its first Save and updates it on later Saves', async () => {
      const trader = await newTrader(app, 'notes');
      const created = await createNote(trader, {});
      expect(created).toMatchObject({
        title: '',
        content: '',
        folder_id: null,
        trade_id: null,
        tags: [],
        net_pl: null,
        stocks_traded: null,
        trade: null,
        attachments: [],
      });
      const saved = await trader.patch(`/api/notes/${created.id}`, { title: 'Plan', content: '# Levels\n18250' });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ id: created.id, title: 'Plan', content: '# Levels\n18250' });
      expect(Date.parse(saved.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
      expect((await trader.get(`/api/notes/${created.id}`)).body.content).toBe('# Levels\n18250');
      expect(await listNotes(trader)).toHaveLength(1);
    });

    it('saving replaces the tag set; tags repeated in one save count once', async () => {
      const trader = await newTrader(app, 'notes');
      const [fomo, aplus, news] = [await upsertTag(trader, 'FOMO'), await upsertTag(trader, 'A+'), await upsertTag(trader, 'News')];
      const note = await createNote(trader, { title: 'tagged', tag_ids: [fomo.id, aplus.id, fomo.id] });
      expect(note.tags.map((t) => t.name)).toEqual(['A+', 'FOMO']);
      const replaced = await trader.patch(`/api/notes/${note.id}`, { tag_ids: [news.id] });
      expect(replaced.body.tags).toEqual([{ id: news.id, name: 'News' }]);
      // Saving without tag_ids leaves the tags alone; an empty list clears them.
      expect((await trader.patch(`/api/notes/${note.id}`, { title: 'renamed' })).body.tags).toEqual([{ id: news.id, name: 'News' }]);
      expect((await trader.patch(`/api/notes/${note.id}`, { tag_ids: [] })).body.tags).toEqual([]);
    });

    it('lists newest change first in pages, filtered by folder and by tag, up to 3 tags shown per row by the client', async () => {
      const trader = await newTrader(app, 'notes');
      const folder = await createFolder(trader, 'Reviews');
      const tag = await upsertTag(trader, 'Review');
      const ids: string[] = [];
      for (let i = 0; i < 7; i += 1) {
        const note = await createNote(trader, {
          title: `note ${i}`,
          ...(i % 2 === 0 && { folder_id: folder.id }),
          ...(i % 3 === 0 && { tag_ids: [tag.id] }),
        });
        ids.push(note.id);
      }
      // Touching note 1 makes it the newest.
      await trader.patch(`/api/notes/${ids[1]}`, { content: 'edited' });
      const all = await listNotes(trader, '', 3);
      expect(all.map((n) => n.title)).toEqual(['note 1', 'note 6', 'note 5', 'note 4', 'note 3', 'note 2', 'note 0']);
      expect((await listNotes(trader, `folder_id=${folder.id}`, 2)).map((n) => n.title)).toEqual(['note 6', 'note 4', 'note 2', 'note 0']);
      expect((await listNotes(trader, 'folder_id=none')).map((n) => n.title)).toEqual(['note 1', 'note 5', 'note 3']);
      expect((await listNotes(trader, `tag_id=${tag.id}`)).map((n) => n.title)).toEqual(['note 6', 'note 3', 'note 0']);
      expect((await listNotes(trader, `folder_id=${folder.id}&tag_id=${tag.id}`)).map((n) => n.title)).toEqual(['note 6', 'note 0']);
      // The list leaves the body out; a row has what the spec shows.
      expect(all[0]).not.toHaveProperty('content');
    });

    it("takes the linked trade's P&L and symbol, and keeps the note when the trade is deleted (unlinked)", async () => {
      const trader = await newTrader(app, 'notes');
      const trade = await createTrade(trader, { symbol: 'NQ', pnl: '-0.10', date: '2025-03-03' });
      const note = await createNote(trader, { title: 'why I lost', trade_id: trade.id });
      expect(note).toMatchObject({ trade_id: trade.id, net_pl: '-0.10', stocks_traded: 'NQ' });
      expect(note.trade).toMatchObject({ id: trade.id, symbol: 'NQ', pnl: '-0.10', trade_date: '2025-03-03T12:00:00.000Z' });
      expect((await listNotes(trader, `trade_id=${trade.id}`)).map((n) => n.id)).toEqual([note.id]);

      expect((await trader.delete(`/api/trades/${trade.id}`)).status).toBe(204);
      const after = await trader.get(`/api/notes/${note.id}`);
      expect(after.status).toBe(200);
      expect(after.body).toMatchObject({ title: 'why I lost', trade_id: null, net_pl: null, stocks_traded: null, trade: null });
    });

    it('a linked note can be unlinked and linked again', async () => {
      const trader = await newTrader(app, 'notes');
      const trade = await createTrade(trader, { symbol: 'ES', pnl: 42.5 });
      const note = await createNote(trader, { title: 'x' });
      expect((await trader.patch(`/api/notes/${note.id}`, { trade_id: trade.id })).body.net_pl).toBe('42.50');
      expect((await trader.patch(`/api/notes/${note.id}`, { trade_id: null })).body.trade_id).toBeNull();
    });

    it('deletes a note with its tags (the tags themselves stay)', async () => {
      const trader = await newTrader(app, 'notes');
      const tag = await upsertTag(trader, 'Keep');
      const note = await createNote(trader, { tag_ids: [tag.id] });
      expect((await trader.delete(`/api/notes/${note.id}`)).status).toBe(204);
      expect((await trader.get(`/api/notes/${note.id}`)).status).toBe(404);
      expect((await trader.delete(`/api/notes/${note.id}`)).status).toBe(404);
      expect((await trader.get('/api/tags')).body).toEqual([tag]);
    });

    it('two tabs: a save based on an older version is refused with 409 note-changed, and nothing is overwritten', async () => {
      const trader = await newTrader(app, 'tabs');
      const opened = await createNote(trader, { title: 'Plan', content: 'v1' });
      // Tab B saves on top of what it opened.
      const tabB = await trader.patch(`/api/notes/${opened.id}`, { base_updated_at: opened.updated_at, content: 'newer from tab B' });
      expect(tabB.status, JSON.stringify(tabB.body)).toBe(200);
      expect(tabB.body.updated_at > opened.updated_at).toBe(true);
      // Tab A still holds v1: its save is refused, naming the note's current version.
      const tabA = await trader.patch(`/api/notes/${opened.id}`, { base_updated_at: opened.updated_at, content: 'older from tab A', title: 'A' });
      expect(tabA.status).toBe(409);
      expect(tabA.body).toEqual({
        error: 'This note was saved in another tab or device after you started editing it.',
        code: 'note-changed',
        updated_at: tabB.body.updated_at,
      });
      expect((await trader.get(`/api/notes/${opened.id}`)).body).toMatchObject({
        title: 'Plan',
        content: 'newer from tab B',
        updated_at: tabB.body.updated_at,
      });
      // The trader chose to keep tab A's words: the save names the version it now replaces, and goes through.
      const chosen = await trader.patch(`/api/notes/${opened.id}`, { base_updated_at: tabB.body.updated_at, content: 'older from tab A' });
      expect(chosen.status).toBe(200);
      expect(chosen.body.content).toBe('older from tab A');
      // Saves that name no version (the API as before) are not checked.
      expect((await trader.patch(`/api/notes/${opened.id}`, { content: 'unchecked' })).status).toBe(200);
      // A bad version is a 400 naming the field; another trader's note is still not found.
      const bad = await trader.patch(`/api/notes/${opened.id}`, { base_updated_at: 'yesterday', content: 'x' });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/^base_updated_at: /);
      const other = await newTrader(app, 'tabs-other');
      expect((await other.patch(`/api/notes/${opened.id}`, { base_updated_at: opened.updated_at, content: 'x' })).status).toBe(404);
    });

    it('refuses bad input with a 400 naming the field, never a 500', async () => {
      const cases: Array<[string, string, unknown, string]> = [
        ['POST', '/api/notes', { title: 'x'.repeat(301) }, 'title: must be at most 300 characters'],
        ['POST', '/api/notes', { content: 'x'.repeat(200_001) }, 'content: must be at most 200,000 characters'],
        ['POST', '/api/notes', { folder_id: 'nope' }, 'folder_id: folder_id must be a folder id'],
        ['POST', '/api/notes', { trade_id: 12 }, 'trade_id: trade_id must be a trade id'],
        ['POST', '/api/notes', { tag_ids: ['x'] }, 'tag_ids.0: tag_ids must be tag ids'],
        ['POST', '/api/notes', { folder_id: '00000000-0000-4000-8000-000000000000' }, 'folder_id: Folder not found'],
        ['POST', '/api/notes', { trade_id: '00000000-0000-4000-8000-000000000000' }, 'trade_id: Trade not found'],
        ['POST', '/api/notes', { tag_ids: ['00000000-0000-4000-8000-000000000000'] }, 'tag_ids: Tag not found'],
        ['GET', '/api/notes?limit=0', undefined, 'limit: Too small: expected number to be >=1'],
        ['GET', '/api/notes?cursor=garbage', undefined, 'cursor: invalid page cursor'],
        ['GET', '/api/notes?q=x&cursor=garbage', undefined, 'cursor: invalid page cursor'],
        ['GET', '/api/notes?folder_id=x', undefined, 'folder_id: folder_id must be a folder id or none'],
        ['GET', '/api/notes/not-a-uuid', undefined, 'id: id must be a note id'],
      ];
      for (const [method, path, body, message] of cases) {
        const res = await alice.json(method, path, body);
        expect(res.status, `${method} ${path}`).toBe(400);
        expect(res.body.error, `${method} ${path}`).toBe(message);
      }
      const raw = await alice.request('POST', '/api/notes', undefined, { 'content-type': 'application/json' });
      expect(raw.status).toBe(400);
      expect((await alice.get('/api/notes/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    });
  });

  describe('full-text search (PostgreSQL text search over titles and bodies, ranked)', () => {
    let trader: ApiClient;
    beforeAll(async () => {
      trader = await newTrader(app, 'search');
      await createNote(trader, { title: 'Weekly review', content: 'Took a breakout on ES that failed; the breakout had no volume.' });
      await createNote(trader, { title: 'Breakout playbook', content: 'Wait for the retest.' });
      await createNote(trader, { title: 'Lunch chop', content: 'Stayed flat, no trades.' });
      await createNote(trader, { title: 'Gap fill', content: 'Breakouts above the overnight high on NQ.' });
      const other = await newTrader(app, 'search');
      await createNote(other, { title: 'Breakout secrets of another trader', content: 'breakout breakout breakout' });
    });

    it('ranks a title match above body matches, and finds stemmed forms (breakouts, breakout)', async () => {
      const found = await listNotes(trader, 'q=breakout');
      expect(found.map((n) => n.title)).toEqual(['Breakout playbook', 'Weekly review', 'Gap fill']);
    });

    it('matches every word, the last as a prefix while typing', async () => {
      expect((await listNotes(trader, 'q=breakout volume')).map((n) => n.title)).toEqual(['Weekly review']);
      expect((await listNotes(trader, 'q=retes')).map((n) => n.title)).toEqual(['Breakout playbook']);
      expect((await listNotes(trader, 'q=overnight nq')).map((n) => n.title)).toEqual(['Gap fill']);
    });

    it("search syntax characters are plain text, stop words alone find nothing, and another trader's notes never show", async () => {
      for (const q of ["breakout & | ! ( ) : * '", 'breakout:*', '"breakout"']) {
        const res = await trader.get(`/api/notes?q=${encodeURIComponent(q)}`);
        expect(res.status, q).toBe(200);
        expect(res.body.notes.length, q).toBe(3);
      }
      expect((await trader.get('/api/notes?q=the')).body.notes).toEqual([]);
      expect((await trader.get(`/api/notes?q=${encodeURIComponent('&&&')}`)).body.notes).toEqual([]);
      expect((await listNotes(trader, 'q=secrets')).length).toBe(0);
    });

    it('pages through search results', async () => {
      const pages = await listNotes(trader, 'q=breakout', 1);
      expect(pages.map((n) => n.title)).toEqual(['Breakout playbook', 'Weekly review', 'Gap fill']);
    });
  });
});
