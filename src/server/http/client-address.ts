import { getConnInfo } from '@hono/node-server/conninfo';

/** The client address as the socket sees it. Forwarded headers are ignored: anyone can forge them. */
export function clientAddress(c: Parameters<typeof getConnInfo>[0]): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
