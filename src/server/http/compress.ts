import zlib from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';
import type { AppEnv } from './context';

/** Below this a compressed answer saves less than the work costs (hono's own threshold). */
export const COMPRESS_THRESHOLD = 1024;

/**
 * zlib's fastest level for the API's answers. They are compressed on the server's one thread while every other request
 * waits: zlib's default level took 13 ms for a four-set Compare answer (770 kB) against 4.6 ms at this level, whose
 * output is about a tenth larger. Edgebook is served from the trader's own machine or network, where those bytes cost
 * less than the wait.
 */
const API_LEVEL = { level: 1 };

/**
 * Response compression. The web app's files and pages go through hono's compress (streamed). The API's JSON answers
 * are complete strings: they are compressed in one piece, sent with their length in one write, and left alone when
 * small or when the browser does not ask for it. hono's middleware turned each answer into a
 * fetch Response with a body stream just to add its Vary header, on every request, compressed or not; Event Streams
 * say no-transform and are never held back.
 */
export function compressResponses(): MiddlewareHandler<AppEnv> {
  const files = compress();
  return async (c, next) => {
    if (!c.req.path.startsWith('/api/')) return files(c, next);
    await next();
    const res = c.res;
    // Headers of the answer as it stands: reading them keeps the adapter's lightweight response (no body stream).
    const headers = res.headers;
    if (!/^application\/json\b/i.test(headers.get('Content-Type') ?? '')) return;
    if (c.req.method === 'HEAD' || headers.has('Content-Encoding') || /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(headers.get('Cache-Control') ?? ''))
      return;
    const vary = headers.get('Vary');
    if (vary !== '*' && !/accept-encoding/i.test(vary ?? '')) headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
    if (!encoding) return;
    const body = Buffer.from(await res.arrayBuffer());
    if (body.length < COMPRESS_THRESHOLD) {
      c.res = new Response(body, { status: res.status, headers });
      return;
    }
    const packed = encoding === 'gzip' ? zlib.gzipSync(body, API_LEVEL) : zlib.deflateSync(body, API_LEVEL);
    headers.set('Content-Encoding', encoding);
    headers.set('Content-Length', String(packed.length));
    c.res = new Response(packed, { status: res.status, headers });
  };
}

/** gzip or deflate as the browser accepts them (q > 0), gzip first; null when it accepts neither. */
export function chooseEncoding(accept: string | undefined): 'gzip' | 'deflate' | null {
  if (!accept) return null;
  const q = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const weight = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    q.set(name, weight === undefined ? 1 : Number(weight));
  }
  const weightOf = (name: string) => q.get(name) ?? q.get('*') ?? 0;
  const gzip = weightOf('gzip');
  const deflate = weightOf('deflate');
  if (gzip > 0 && gzip >= deflate) return 'gzip';
  if (deflate > 0) return 'deflate';
  return null;
}
