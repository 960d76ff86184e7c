import type { IncomingMessage } from 'node:http';
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
