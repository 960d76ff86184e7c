/**
 * Time-zone arithmetic on Intl alone, memoised, because an import of 100,000 fills converts 200,000 times and
 * @date-fns/tz's TZDate costs ~25 µs a conversion (the benchmark). Offsets are cached per zone and quarter
 * hour of UTC: every transition in the time-zone database since 1970 falls on a quarter hour.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, Map<number, number>>();
const QUARTER_HOUR = 900_000;
const DAY = 86_400_000;

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      // Years before 1 come as '1 BC': with the era, year 0 is not read as year 1.
      era: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Milliseconds to add to a UTC instant to get the wall clock of `timeZone`. */
export function offsetAt(epochMs: number, timeZone: string): number {
  let cache = offsets.get(timeZone);
  if (!cache) offsets.set(timeZone, (cache = new Map()));
  const bucket = Math.floor(epochMs / QUARTER_HOUR);
  const known = cache.get(bucket);
  if (known !== undefined) return known;
  const at = bucket * QUARTER_HOUR;
  const parts: Record<string, number> = {};
  let beforeChrist = false;
  for (const part of formatter(timeZone).formatToParts(at)) {
    if (part.type === 'era') beforeChrist = part.value === 'BC';
    else if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(beforeChrist ? 1 - parts['year']! : parts['year']!, parts['month']! - 1, parts['day']!);
  date.setUTCHours(parts['hour']!, parts['minute']!, parts['second']!);
  const wall = date.getTime();
  const offset = wall - at;
  cache.set(bucket, offset);
  return offset;
}

/**
 * The instant of a wall-clock time in `timeZone` (wall clock given as if it were UTC milliseconds). In the hour a
 * daylight-saving change skips, the time moves forward by the change (02:30 -> 03:30 daylight time, as @date-fns/tz
 * does); in the hour that repeats, the first occurrence (daylight time) is taken.
 */
export function wallClockToInstant(wallMs: number, timeZone: string): number {
  const before = offsetAt(wallMs - DAY, timeZone);
  const after = offsetAt(wallMs + DAY, timeZone);
  const early = wallMs - before;
  const earlyValid = offsetAt(early, timeZone) === before;
  if (before === after) return early;
  const late = wallMs - after;
  const lateValid = offsetAt(late, timeZone) === after;
  if (earlyValid && lateValid) return Math.min(early, late);
  if (earlyValid) return early;
  if (lateValid) return late;
  return early;
}

/** Wall-clock fields of an instant in `timeZone`. */
export function wallClockOf(
  epochMs: number,
  timeZone: string,
): { year: number; month: number; day: number; hour: number; minute: number; second: number; weekday: number } {
  const local = new Date(epochMs + offsetAt(epochMs, timeZone));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
    weekday: local.getUTCDay(),
  };
}
