/**
 * An Orders export and a Performance export of the same account describe the same round trips but
 * give them different import keys (order ids in one, fill ids in the other), so importing both doubled the trades.
 * A round trip already stored is recognised by what both exports share: contract, side, quantity, the average entry
 * and exit prices, and the entry and exit times to the precision both files have (the second, or the minute when
 * either file has minutes only).
 */
export interface RoundTrip {
  contract: string | null;
  side: string | null;
  quantity: string | null;
  entryPrice: string | null;
  exitPrice: string | null;
  /** ISO-8601 instants. */
  entryTime: string | null;
  exitTime: string | null;
  /** The times are whole minutes (the file had no seconds). */
  minutePrecision: boolean;
  /** A stored trip's trade id, and whether it keeps its fills (a re-import adds them to one that does not). */
  id?: string;
  hasFills?: boolean;
}

/** A decimal as written without trailing zeros, so 28531.75000000 (stored) and 28531.75 (parsed) compare equal. */
function canonical(decimal: string): string {
  if (!decimal.includes('.')) return decimal.replace(/^(-?)0+(?=\d)/, '$1');
  return decimal
    .replace(/0+$/, '')
    .replace(/\.$/, '')
    .replace(/^(-?)0+(?=\d)/, '$1');
}

function minuteKey(trip: RoundTrip): string | null {
  if (!trip.contract || !trip.side || !trip.quantity || !trip.entryPrice || !trip.exitPrice || !trip.entryTime || !trip.exitTime) return null;
  const entry = Date.parse(trip.entryTime);
  const exit = Date.parse(trip.exitTime);
  if (!Number.isFinite(entry) || !Number.isFinite(exit)) return null;
  return [
    trip.contract,
    trip.side,
    canonical(trip.quantity),
    canonical(trip.entryPrice),
    canonical(trip.exitPrice),
    Math.floor(entry / 60_000),
    Math.floor(exit / 60_000),
  ].join('|');
}

function sameSeconds(a: RoundTrip, b: RoundTrip): boolean {
  if (a.minutePrecision || b.minutePrecision) return true;
  return (
    Math.floor(Date.parse(a.entryTime!) / 1000) === Math.floor(Date.parse(b.entryTime!) / 1000) &&
    Math.floor(Date.parse(a.exitTime!) / 1000) === Math.floor(Date.parse(b.exitTime!) / 1000)
  );
}

/**
 * Indexes of `incoming` trips that are already among `stored`. Each stored trip answers for one incoming trip at
 * most, so two identical trades in a file stay two when the account has one of them.
 */
export function findStoredRoundTrips(incoming: RoundTrip[], stored: RoundTrip[]): Set<number> {
  return new Set(matchStoredRoundTrips(incoming, stored).keys());
}

/** As findStoredRoundTrips, with the stored trip each incoming one was found as. */
export function matchStoredRoundTrips(incoming: RoundTrip[], stored: RoundTrip[]): Map<number, RoundTrip> {
  const pool = new Map<string, RoundTrip[]>();
  for (const trip of stored) {
    const key = minuteKey(trip);
    if (key === null) continue;
    let list = pool.get(key);
    if (!list) pool.set(key, (list = []));
    list.push(trip);
  }
  const found = new Map<number, RoundTrip>();
  if (pool.size === 0) return found;
  incoming.forEach((trip, index) => {
    const key = minuteKey(trip);
    const candidates = key === null ? undefined : pool.get(key);
    if (!candidates) return;
    const at = candidates.findIndex((candidate) => sameSeconds(candidate, trip));
    if (at === -1) return;
    found.set(index, candidates.splice(at, 1)[0]!);
  });
  return found;
}
