import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from 'hono';
import { badRequest, HttpError } from './errors';

/** An upload written to a file of its own, for a reader that goes through it a slice at a time. */
export interface SavedUpload {
  path: string;
  size: number;
  /** SHA-256 of the bytes, hex, taken as they arrived. */
  digest: string;
  /** The first HEAD_BYTES bytes (a file's header row). */
  head: Uint8Array;
  /** Deletes the file; call it when the request is done with it, whatever happened. */
  remove(): Promise<void>;
}

/**
 * An upload's bytes (a broker file, a bar file, a JSON backup, a calendar) written to a temporary file as they arrive,
 * a chunk at a time, so no thread ever holds the whole of them: a 50 MB bar file read into one buffer stayed resident,
 * beside its reader's own memory, for the whole preview or import, and an upload waiting its turn held its bytes all
 * that time. The body is read through the request's own stream, its one reader (the adapter has often begun reading
 * the socket into it by the time the route runs: a second reader of the socket lost what the first took); a body
 * longer or shorter than its Content-Length is refused (400), and the route's body limit counts a body without one.
 * The file is readable by this server's user alone, and deleted if the body fails half way.
 */
async function saveUpload(c: Context): Promise<SavedUpload> {
  const header = c.req.header('content-length');
  const declared = header === undefined ? NaN : Number(header);
  const checked = Number.isSafeInteger(declared) && declared >= 0;
  const path = join(await uploadsDir(), randomUUID());
  const file = await open(path, 'wx', 0o600);
  const remove = () => rm(path, { force: true });
  let size = 0;
  const hash = createHash('sha256');
  const head = new Uint8Array(HEAD_BYTES);
  try {
    const reader = c.req.raw.body?.getReader();
    for (let step = await reader?.read(); step && !step.done; step = await reader!.read()) {
      const chunk = step.value;
      if (checked && size + chunk.byteLength > declared) throw badRequest('body: longer than its Content-Length');
      if (size < HEAD_BYTES) head.set(chunk.subarray(0, HEAD_BYTES - size), size);
      hash.update(chunk);
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
  return { path, size, digest: hash.digest('hex'), head: head.subarray(0, Math.min(size, HEAD_BYTES)), remove };
}

const HEAD_BYTES = 65_536;

/**
 * Uploads are written in a folder of this process's own (its id in the name): a server killed while a request read an
 * upload leaves its file there, and the next server to start deletes the folders of processes no longer running
 * (sweepStoppedServersUploads), never a running server's, though several may share the machine's temporary folder.
 */
const UPLOADS_PREFIX = 'edgebook-uploads-';
async function uploadsDir(): Promise<string> {
  const dir = join(tmpdir(), `${UPLOADS_PREFIX}${process.pid}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Deletes the upload folders of servers that are no longer running; how many it deleted. */
export async function sweepStoppedServersUploads(): Promise<number> {
  let deleted = 0;
  for (const name of await readdir(tmpdir()).catch(() => [] as string[])) {
    if (!name.startsWith(UPLOADS_PREFIX)) continue;
    const pid = Number(name.slice(UPLOADS_PREFIX.length));
    if (!Number.isSafeInteger(pid) || pid <= 0 || isRunning(pid)) continue;
    await rm(join(tmpdir(), name), { recursive: true, force: true });
    deleted++;
  }
  return deleted;
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Forms and multipart bodies are not a file's bytes; anything else (csv, json, plain text, no type) is read. */
const REFUSED_TYPES = /^(multipart\/|application\/x-www-form-urlencoded)/i;

/**
 * Runs `use` with the uploaded file written to disk as it arrived (saveUpload): the parse worker reads it from there
 * when its turn comes, so the server's thread never holds it, not even while it waits its turn. Holding it whole (one
 * buffer of the declared length, moved to the worker) kept every waiting upload resident. The file is deleted once
 * `use` is done, whatever happened. With `refused`, a form or multipart body is refused with it (415).
 */
export async function withSavedUpload<T>(c: Context, refused: string | null, use: (upload: SavedUpload) => Promise<T>): Promise<T> {
  if (refused !== null && REFUSED_TYPES.test(c.req.header('content-type') ?? ''))
    throw new HttpError(415, refused, { code: 'unsupported-media-type' });
  const upload = await saveUpload(c);
  try {
    return await use(upload);
  } finally {
    await upload.remove();
  }
}
