/**
 * Import keys (issue 4: "a stable key per fill or trade, per account"). The key is a hash of what identifies the trade
 * in the file: the broker's fill/order/trade ids when the file has them, else the trade's own contents (contract,
 * side, times, quantity, prices, money). An occurrence counter tells apart trades that are identical in everything,
 * so two genuinely identical trades in one file stay two, while reading the same file again gives the same keys.
 * The server scopes keys to the target account.
 */
export class ImportKeyAllocator {
  private readonly seen = new Map<string, number>();

  next(material: string): string {
    const occurrence = (this.seen.get(material) ?? 0) + 1;
    this.seen.set(material, occurrence);
    return `v1:${hash(material)}:${occurrence}`;
  }
}

/** 106-bit non-cryptographic hash (two seeded cyrb53 rounds), hex. Only has to keep keys short and unique. */
export function hash(text: string): string {
  return cyrb53(text, 0x9e3779b9).toString(16).padStart(14, '0') + cyrb53(text, 0x85ebca6b).toString(16).padStart(14, '0');
}

function cyrb53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
