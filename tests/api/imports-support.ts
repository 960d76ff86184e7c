import fs from 'node:fs';
import type { ApiClient } from '../support/app';

/** Helpers of the import API tests: files as the dialog sends them (the bytes as the body, options in the query). */

const brokers = new URL('../../../shared/fixtures/brokers/', import.meta.url);
const own = new URL('../../src/domain/importers/fixtures/', import.meta.url);

/** A real export from ../shared/fixtures/brokers (read at test time, never copied into the repository). */
export const brokerFile = (path: string) => fs.readFileSync(new URL(path, brokers), 'utf8');
/** One of our own fixtures, beside the importers. */
export const ownFile = (name: string) => fs.readFileSync(new URL(name, own), 'utf8');

export interface Sent {
  status: number;
  body: any;
}

export async function sendFile(
  client: ApiClient,
  path: string,
  query: Record<string, string>,
  body: string | Uint8Array,
  contentType = 'text/csv',
): Promise<Sent> {
  const res = await fetch(`${client.baseUrl}${path}?${new URLSearchParams(query)}`, {
    method: 'POST',
    headers: { 'content-type': contentType, cookie: client.cookieHeader, origin: client.baseUrl },
    body: typeof body === 'string' ? body : new Blob([body as Uint8Array<ArrayBuffer>]),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

export const previewFile = (client: ApiClient, query: Record<string, string>, body: string | Uint8Array, type?: string) =>
  sendFile(client, '/api/imports/preview', query, body, type);
export const importFile = (client: ApiClient, query: Record<string, string>, body: string | Uint8Array, type?: string) =>
  sendFile(client, '/api/imports', query, body, type);
