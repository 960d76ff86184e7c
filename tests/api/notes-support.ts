import { expect } from 'vitest';
import type { ApiClient } from '../support/app';

/** Helpers shared by the notes-layer API tests (notes, journal, attachments, trade details, quick links). */

/** A 1x1 PNG. */
export const PNG_BYTES = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

export interface NoteDto {
  id: string;
  title: string;
  content: string;
  folder_id: string | null;
  trade_id: string | null;
  journal_date: string | null;
  net_pl: string | null;
  stocks_traded: string | null;
  tags: Array<{ id: string; name: string }>;
  trade: null | { id: string; symbol: string; pnl: string; notes: string; trade_date: string };
  attachments: AttachmentDto[];
  created_at: string;
  updated_at: string;
}

export interface AttachmentDto {
  id: string;
  note_id: string | null;
  trade_id: string | null;
  url: string;
  caption: string | null;
  uploaded: boolean;
}

export async function createNote(client: ApiClient, input: Record<string, unknown> = {}): Promise<NoteDto> {
  const res = await client.post('/api/notes', input);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function createFolder(client: ApiClient, name: string): Promise<{ id: string; name: string; note_count: number }> {
  const res = await client.post('/api/note-folders', { name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function upsertTag(client: ApiClient, name: string): Promise<{ id: string; name: string }> {
  const res = await client.post('/api/tags', { name });
  expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
  return res.body;
}

/** Every note of a list query, walking the pages. */
export async function listNotes(client: ApiClient, query = '', limit = 50): Promise<NoteDto[]> {
  const out: NoteDto[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(query);
    params.set('limit', String(limit));
    if (cursor) params.set('cursor', cursor);
    const res = await client.get(`/api/notes?${params}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.notes);
    cursor = res.body.next_cursor;
  } while (cursor);
  return out;
}

/** A multipart image upload, as the browser sends it. */
export async function uploadAttachment(
  client: ApiClient,
  target: { note_id?: string; trade_id?: string; playbook_id?: string },
  bytes: Uint8Array,
  name = 'chart.png',
  type = 'image/png',
) {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)], { type }), name);
  for (const [key, value] of Object.entries(target)) if (value) form.set(key, value);
  const res = await fetch(`${client.baseUrl}/api/attachments/upload`, {
    method: 'POST',
    headers: { cookie: client.cookieHeader, origin: client.baseUrl },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
