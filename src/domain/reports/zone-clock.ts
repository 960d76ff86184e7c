/**
 * The hour of an instant in the trader's zone, for 100,000 trades at a time. Asking Intl for each trade costs ~5 µs,
 * half a second for a large journal. A zone's offset changes at most once in a UTC day, and only on a quarter hour
 * (every transition of the IANA database since 1970 does): so a day whose first and last quarter share an offset has
 * it throughout, and only the day of a transition is looked up by the quarter. The answers are remembered per zone:
 * a journal of six years asks Intl about two thousand times, once.
 */

const QUARTER_MS = 15 * 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** A day whose offset changes within it. */
const MIXED = Number.NaN;

interface ZoneOffsets {
  /** UTC day index -> the offset all day, or MIXED. */
  days: Map<number, number>;
  /** Quarter index -> offset, for the mixed days. */
  quarters: Map<number, number>;
}

/** Remembered offsets per zone (a few thousand numbers each); zones are few. */
const offsetsByZone = new Map<string, ZoneOffsets>();
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Local wall time minus UTC, in ms, at `ms`. */
function computeOffset(ms: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour! % 24, parts.minute!);
  return wall - Math.floor(ms / 60_000) * 60_000;
}

/** Offset of `timeZone` at `ms` (local minus UTC). Throws a RangeError for a zone Intl does not know. */
export function getZoneOffsetMs(ms: number, timeZone: string): number {
  let zone = offsetsByZone.get(timeZone);
  if (!zone) {
    zone = { days: new Map(), quarters: new Map() };
    offsetsByZone.set(timeZone, zone);
  }
  const day = Math.floor(ms / DAY_MS);
  let whole = zone.days.get(day);
  if (whole === undefined) {
    const first = computeOffset(day * DAY_MS, timeZone);
    const last = computeOffset((day + 1) * DAY_MS - QUARTER_MS, timeZone);
    whole = first === last ? first : MIXED;
    zone.days.set(day, whole);
  }
  if (!Number.isNaN(whole)) return whole;
  const quarter = Math.floor(ms / QUARTER_MS);
  let offset = zone.quarters.get(quarter);
  if (offset === undefined) {
    offset = computeOffset(quarter * QUARTER_MS, timeZone);
    zone.quarters.set(quarter, offset);
  }
  return offset;
}

/** The hour 0-23 on the clock of `timeZone` at `ms`. */
export function getHourOfInstant(ms: number, timeZone: string): number {
  const local = ms + getZoneOffsetMs(ms, timeZone);
  return ((Math.floor(local / HOUR_MS) % 24) + 24) % 24;
}
