import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_SIZE_ERROR, IMAGE_TYPE_ERROR, MAX_IMAGE_BYTES } from '../../src/domain/files/image-type';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { createTrade, newTrader } from './trades-support';
import { createNote, PNG_BYTES, uploadAttachment } from './notes-support';

/**
 * Attachments over HTTP: images by URL (http and https only) and uploaded files, whose type is read from their bytes, capped at 10 MB, stored behind
 * the storage interface and served only to their owner.
 */
describe.each(backends())('attachments API on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;

  beforeAll(async () => {
    app = await startTestApp({ backend });
    [alice, bob] = await Promise.all([newTrader(app, 'alice'), newTrader(app, 'bob')]);
  });
  afterAll(() => app?.close());

  it('adds image URLs to a note and to a trade, listed newest first', async () => {
    const note = await createNote(alice, { title: 'with images' });
    const trade = await createTrade(alice, { symbol: 'NQ', pnl: 10 });
    const a = await alice.post('/api/attachments', { note_id: note.id, url: ' https://s3.tradingview.com/snapshots/a.png ', caption: 'entry' });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body).toMatchObject({
      note_id: note.id,
      trade_id: null,
      url: 'https://s3.tradingview.com/snapshots/a.png',
      caption: 'entry',
      uploaded: false,
    });
    await new Promise((r) => setTimeout(r, 5));
    const b = await alice.post('/api/attachments', { note_id: note.id, url: 'http://charts.local/b.png' });
    expect(b.status).toBe(201);
    const onTrade = await alice.post('/api/attachments', { trade_id: trade.id, url: 'https://x.test/t.png' });
    expect(onTrade.status).toBe(201);

    expect((await alice.get(`/api/attachments?note_id=${note.id}`)).body.map((x: { id: string }) => x.id)).toEqual([b.body.id, a.body.id]);
    expect((await alice.get(`/api/attachments?trade_id=${trade.id}`)).body.map((x: { id: string }) => x.id)).toEqual([onTrade.body.id]);
    // The note's own view carries them too.
    expect((await alice.get(`/api/notes/${note.id}`)).body.attachments.map((x: { id: string }) => x.id)).toEqual([b.body.id, a.body.id]);
  });

  it('refuses addresses that are not web images, an empty URL, and a missing or double target', async () => {
    const note = await createNote(alice);
    const cases: Array<[unknown, string]> = [
      [{ note_id: note.id, url: 'javascript:alert(document.cookie)' }, 'url: Only http and https image addresses can be attached'],
      [{ note_id: note.id, url: 'data:image/svg+xml,<svg onload=alert(1)>' }, 'url: Only http and https image addresses can be attached'],
      [{ note_id: note.id, url: '   ' }, 'url: Image URL is required'],
      [{ note_id: note.id }, 'url: Image URL is required'],
      [{ url: 'https://x.test/a.png' }, 'note_id: note_id, trade_id or playbook_id is required (one of them)'],
      [{ note_id: note.id, trade_id: note.id, url: 'https://x.test/a.png' }, 'note_id: note_id, trade_id or playbook_id is required (one of them)'],
      [{ note_id: 'x', url: 'https://x.test/a.png' }, 'note_id: note_id must be a note id'],
      [{ note_id: note.id, url: 'https://x.test/a.png', caption: 'c'.repeat(301) }, 'caption: must be at most 300 characters'],
      [{ note_id: '00000000-0000-4000-8000-000000000000', url: 'https://x.test/a.png' }, 'note_id: Note not found'],
      [{ trade_id: '00000000-0000-4000-8000-000000000000', url: 'https://x.test/a.png' }, 'trade_id: Trade not found'],
    ];
    for (const [body, message] of cases) {
      const res = await alice.post('/api/attachments', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toBe(message);
    }
    expect((await alice.get(`/api/attachments?note_id=${note.id}`)).body).toEqual([]);
    expect((await alice.get('/api/attachments')).status).toBe(400);
  });

  it('stores an uploaded PNG (type from its bytes, not its name), serves it to its owner only, with nosniff', async () => {
    const trade = await createTrade(alice, { symbol: 'ES', pnl: 5 });
    const res = await uploadAttachment(alice, { trade_id: trade.id }, PNG_BYTES, 'screenshot.jpg', 'image/jpeg');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ trade_id: trade.id, uploaded: true });
    expect(res.body.url).toMatch(/^\/api\/attachments\/files\/[0-9a-f-]{36}\.png$/);

    const own = await alice.request('GET', res.body.url);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('image/png');
    expect(own.headers.get('x-content-type-options')).toBe('nosniff');
    // The image chose its own caching (private: the browser may keep it an hour, a shared proxy may not).
    expect(own.headers.get('cache-control')).toBe('private, max-age=3600');
    expect((await alice.request('GET', `/api/attachments?trade_id=${trade.id}`)).headers.get('cache-control')).toBe('no-store');
    expect(Buffer.from(await own.arrayBuffer()).equals(PNG_BYTES)).toBe(true);

    expect((await bob.request('GET', res.body.url)).status).toBe(404);
    expect((await fetch(`${app.url}${res.body.url}`)).status).toBe(401);
    // No path tricks reach another folder.
    for (const path of ['/api/attachments/files/..%2F..%2Favatars%2Fx.png', '/api/attachments/files/evil.svg', '/api/attachments/files/a.png']) {
      expect((await alice.request('GET', path)).status, path).toBe(404);
    }
  });

  it('refuses a text file named .png (400, the spec message) and an image over 10 MB (413)', async () => {
    const note = await createNote(alice);
    const text = await uploadAttachment(alice, { note_id: note.id }, new TextEncoder().encode('<svg onload=alert(1)></svg>'), 'x.png');
    expect(text.status).toBe(400);
    expect(text.body.error).toBe(IMAGE_TYPE_ERROR);
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1024);
    big.set(PNG_BYTES, 0);
    const large = await uploadAttachment(alice, { note_id: note.id }, big);
    expect(large.status).toBe(413);
    expect(large.body.error).toBe(IMAGE_SIZE_ERROR);
    const noTarget = await uploadAttachment(alice, {}, PNG_BYTES);
    expect(noTarget.status).toBe(400);
    expect(noTarget.body.error).toBe('note_id: note_id, trade_id or playbook_id is required (one of them)');
    expect((await alice.get(`/api/attachments?note_id=${note.id}`)).body).toEqual([]);
  });

  it('deleting an attachment, or its note, removes the stored file too', async () => {
    const note = await createNote(alice, { title: 'temp' });
    const first = (await uploadAttachment(alice, { note_id: note.id }, PNG_BYTES)).body;
    const second = (await uploadAttachment(alice, { note_id: note.id }, PNG_BYTES)).body;
    expect((await alice.delete(`/api/attachments/${first.id}`)).status).toBe(204);
    expect((await alice.delete(`/api/attachments/${first.id}`)).status).toBe(404);
    expect((await alice.request('GET', first.url)).status).toBe(404);
    expect((await alice.request('GET', second.url)).status).toBe(200);

    expect((await alice.delete(`/api/notes/${note.id}`)).status).toBe(204);
    expect((await alice.request('GET', second.url)).status).toBe(404);
  });

  it("a deleted trade's uploaded image is no longer served (its attachment rows went with it)", async () => {
    const trade = await createTrade(alice, { symbol: 'GONE', pnl: 1 });
    const upload = (await uploadAttachment(alice, { trade_id: trade.id }, PNG_BYTES)).body;
    expect((await alice.request('GET', upload.url)).status).toBe(200);
    expect((await alice.delete(`/api/trades/${trade.id}`)).status).toBe(204);
    expect((await alice.request('GET', upload.url)).status).toBe(404);
  });
});
