import { BlockList, isIP } from 'node:net';
import type { Context } from 'hono';

/**
 * Which address a request comes from. The socket's, unless the socket is a reverse proxy listed in TRUSTED_PROXIES:
 * then the proxy's X-Forwarded-For is read from the right, past every trusted hop, to the first address the trader's
 * side added. A client that is not a listed proxy cannot choose its address with a header; behind a
 * proxy, without the setting, every trader would share the proxy's address and its sign-in limit.
 */

/** '::ffff:127.0.0.1' (an IPv4 client on a dual-stack socket) is 127.0.0.1. */
export function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/** `10.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`: null when the entry is neither an address nor a CIDR range. */
function parseEntry(entry: string): { address: string; prefix?: number; family: 'ipv4' | 'ipv6' } | null {
  const [address = '', prefixText, extra] = entry.split('/');
  const version = isIP(address);
  if (!version || extra !== undefined) return null;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (prefixText === undefined) return { address, family };
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  if (prefix > (version === 4 ? 32 : 128)) return null;
  return { address, prefix, family };
}

/** The entries of a TRUSTED_PROXIES value that are not addresses or ranges (for the config's error message). */
export function invalidProxyEntries(value: string): string[] {
  return splitList(value).filter((entry) => parseEntry(entry) === null);
}

const splitList = (value: string) =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

export interface ClientAddressResolver {
  (socketAddress: string | undefined, forwardedFor: string | undefined): string;
}

export function createClientAddressResolver(trustedProxies: string | undefined): ClientAddressResolver {
  const entries = splitList(trustedProxies ?? '').map(parseEntry);
  if (entries.length === 0) return (socket) => normalizeAddress(socket ?? 'unknown');
  const list = new BlockList();
  for (const entry of entries) {
    if (!entry) continue;
    if (entry.prefix === undefined) list.addAddress(entry.address, entry.family);
    else list.addSubnet(entry.address, entry.prefix, entry.family);
  }
  const trusted = (address: string) => {
    const version = isIP(address);
    return version !== 0 && list.check(address, version === 4 ? 'ipv4' : 'ipv6');
  };
  return (socketAddress, forwardedFor) => {
    const socket = normalizeAddress(socketAddress ?? 'unknown');
    if (!trusted(socket) || !forwardedFor) return socket;
    const hops = forwardedFor.split(',').map((hop) => normalizeAddress(hop.trim()));
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!;
      // Garbage in the header ends the walk: what lies left of it was written by whoever sent the garbage.
      if (!isIP(hop)) return i === hops.length - 1 ? socket : hops[i + 1]!;
      if (!trusted(hop)) return hop;
    }
    return hops[0]!;
  };
}

/**
 * The client address of a request, as the first middleware resolved it (app.ts sets `clientIp` from the socket,
 * or from X-Forwarded-For behind a TRUSTED_PROXIES proxy).
 */
export function clientAddress(c: Context): string {
  return (c.get('clientIp') as string | undefined) ?? 'unknown';
}
