import { randomUUID } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from 'hono';
import { badRequest } from './errors';

/**
 * An upload's bytes (an import file, a JSON backup) as one ArrayBuffer, read straight from the socket into a buffer of
 * the length the request declares. The adapter's own arrayBuffer() gathers the chunks, joins them
 * into a Buffer and copies that into an ArrayBuffer: three copies of a 50 MB upload at once, for every trader
 * uploading. A body without a declared length (chunked) is read the adapter's way; limitBodies() has checked the
 * declared length against the route's limit before this runs.
 */
export async function readUpload(c: Context): Promise<ArrayBuffer> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const declared = Number(c.req.header('content-length'));
  if (!incoming || incoming.readableDidRead || !Number.isSafeInteger(declared) || declared < 0) return c.req.arrayBuffer();
  const body = new Uint8Array(declared);
  let length = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    // Node's HTTP parser stops at the declared length; this is the net under it.
    if (length + chunk.byteLength > declared) throw badRequest('body: longer than its Content-Length');
    body.set(chunk, length);
    length += chunk.byteLength;
  }
  if (length !== declared) throw badRequest('body: shorter than its Content-Length');
  return body.buffer;
}

/** An upload written to a file of its own, for a reader that goes through it a slice at a time. */
export interface SavedUpload {
  path: string;
  size: number;
  /** Deletes the file; call it when the request is done with it, whatever happened. */
  remove(): Promise<void>;
}

/**
 * An upload's bytes written to a temporary file as they arrive, a chunk at a time, so no thread ever holds the whole
 * of them: a 50 MB bar file read into one buffer stayed resident, beside its reader's own memory, for the whole preview
 * or import. The body is read through the request's own stream, its one reader (the adapter has often begun reading the
 * socket into it by the time the route runs: a second reader of the socket lost what the first took), with the same
 * checks against the declared length as readUpload(); the route's body limit counts a body without one. The file is
 * readable by this server's user alone, and deleted if the body fails half way.
 */
export async function saveUpload(c: Context): Promise<SavedUpload> {
  const header = c.req.header('content-length');
  const declared = header === undefined ? NaN : Number(header);
  const checked = Number.isSafeInteger(declared) && declared >= 0;
  const path = join(tmpdir(), `edgebook-upload-${randomUUID()}`);
  const file = await open(path, 'wx', 0o600);
  const remove = () => rm(path, { force: true });
  let size = 0;
  try {
    const reader = c.req.raw.body?.getReader();
    for (let step = await reader?.read(); step && !step.done; step = await reader!.read()) {
      const chunk = step.value;
      if (checked && size + chunk.byteLength > declared) throw badRequest('body: longer than its Content-Length');
      for (let written = 0; written < chunk.byteLength;) written += (await file.write(chunk, written)).bytesWritten;
      size += chunk.byteLength;
    }
    if (checked && size !== declared) throw badRequest('body: shorter than its Content-Length');
  } catch (error) {
    await file.close().catch(() => undefined);
    await remove();
    throw error;
  }
  await file.close();
  return { path, size, remove };
}
