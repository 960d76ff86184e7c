import { isFuturesInstrument } from '../instruments';
import { isExchangeClosed, marketDayOf, MARKET_TIME_ZONE } from '../market-time';
import { offsetAt, wallClockOf, wallClockToInstant } from '../dates/clock';

/**
 * Which zone a file's naive times were written in. A file whose times are in London time, imported as New York, was
 * once accepted with every trade shifted by five hours. Futures do not fill while CME Globex is closed (Friday 17:00 to
 * Sunday 18:00 New York time, and the daily halt 17:00-18:00: domain/market-time), and a file that names each fill's
 * trading day must agree with the times. When the
 * chosen zone puts fills where the exchange is closed, or against the file's own days, the preview warns and proposes
 * the zone in which they fit. Only files whose times carry no offset are checked: for the others the zone is not a
 * choice.
 */

/** Zones a broker export is commonly written in; the chosen and the trader's own zones are tried as well. */
export const CANDIDATE_ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Sao_Paulo',
  'UTC',
  'Europe/London',
  'Europe/Berlin',
  'Europe/Athens',
  'Europe/Moscow',
  'Asia/Dubai',
  'Asia/Kolkata',
  'Asia/Singapore',
  'Asia/Shanghai',
  'Asia/Tokyo',
  'Australia/Sydney',
];

/** Times checked at most (a large file is sampled evenly): enough to see a pattern, cheap for 100,000 fills. */
const SAMPLE = 4_000;

export interface ZoneEvidence {
  /** Instants of futures fills, read in the chosen zone. */
  times: number[];
  /** Instants (read in the chosen zone) with the trading day the file itself gives for them. */
  days: { time: number; day: string }[];
}

export interface ZoneFit {
  zone: string;
  /** Fills that would fall while the exchange is closed. */
  closed: number;
  /** Fills whose trading day would differ from the day the file gives. */
  dayMismatches: number;
  /** Fills inside the US cash session (09:30-16:00 New York): where a futures day trader mostly trades. */
  cashSession: number;
  /**
   * Fills in the cash session's first hour (09:30-10:30 New York), its busiest: between zones that put the same fills
   * in the session (UTC+5:30 and UTC+8 both do for a morning trader's file), the one that puts them at the open.
   */
  openingHour: number;
}

export interface TimeZoneCheck {
  /** How the chosen zone fits. */
  chosen: ZoneFit;
  checked: number;
  /** The zone in which the times fit best, if one fits better than the chosen one. */
  suggested: ZoneFit | null;
  /** Other zones (of other UTC offsets) that fit as well as the suggested one, best first. */
  alternatives: ZoneFit[];
  message: string;
}

/** Collects the evidence: times of futures fills (only they have exchange hours to check against), and file days. */
export function zoneEvidence(fills: { time: number; contract: string }[], days: { time: number; day: string }[] = []): ZoneEvidence {
  const times: number[] = [];
  for (const fill of fills) if (isFuturesInstrument(fill.contract)) times.push(fill.time);
  return { times, days };
}

function sample<T>(items: T[]): T[] {
  if (items.length <= SAMPLE) return items;
  const step = items.length / SAMPLE;
  return Array.from({ length: SAMPLE }, (_, i) => items[Math.floor(i * step)]!);
}

/** The instant the same wall-clock text would stand for in `to`, given what it stands for in `from`. */
function reread(instant: number, from: string, to: string): number {
  if (from === to) return instant;
  return wallClockToInstant(instant + offsetAt(instant, from), to);
}

function fit(evidence: ZoneEvidence, chosen: string, zone: string): ZoneFit {
  let closed = 0;
  let cashSession = 0;
  let openingHour = 0;
  for (const time of evidence.times) {
    const instant = reread(time, chosen, zone);
    if (isExchangeClosed(instant)) closed++;
    const local = wallClockOf(instant, MARKET_TIME_ZONE);
    const minutes = local.hour * 60 + local.minute;
    if (local.weekday >= 1 && local.weekday <= 5 && minutes >= 9 * 60 + 30 && minutes < 16 * 60) {
      cashSession++;
      if (minutes < 10 * 60 + 30) openingHour++;
    }
  }
  let dayMismatches = 0;
  for (const { time, day } of evidence.days) {
    if (marketDayOf(reread(time, chosen, zone), { rule: 'exchange' }).tradingDay !== day) dayMismatches++;
  }
  return { zone, closed, dayMismatches, cashSession, openingHour };
}

const faults = (f: ZoneFit) => f.closed + f.dayMismatches;

/**
 * Checks the chosen zone against the exchange's hours and the file's own days; null when it fits (or there is
 * nothing to check). Otherwise it proposes the zones in which the times fit best: the trader's own zones first (a
 * platform exports in the clock of the machine it runs on), then those that put most fills in the US cash session,
 * then most in its opening hour, one zone per UTC offset.
 */
export function checkTimeZone(evidence: ZoneEvidence, chosen: string, preferred: string[] = []): TimeZoneCheck | null {
  const sampled: ZoneEvidence = { times: sample(evidence.times), days: sample(evidence.days) };
  const checked = sampled.times.length + sampled.days.length;
  if (checked === 0) return null;
  const mine = fit(sampled, chosen, chosen);
  if (faults(mine) === 0) return null;
  const order = [...new Set([...preferred, ...CANDIDATE_ZONES])].filter((zone) => zone !== chosen);
  const fits = order.map((zone) => fit(sampled, chosen, zone));
  const fewest = Math.min(...fits.map(faults));
  const reference = sampled.times[Math.floor(sampled.times.length / 2)] ?? sampled.days[0]!.time;
  const seenOffsets = new Set<number>([offsetAt(reference, chosen)]);
  const best: ZoneFit[] = [];
  const ranked = fits
    .map((f, index) => ({ f, index, preferred: preferred.includes(f.zone) }))
    .filter(({ f }) => faults(f) === fewest && fewest < faults(mine))
    .sort(
      (a, b) =>
        Number(b.preferred) - Number(a.preferred) || b.f.cashSession - a.f.cashSession || b.f.openingHour - a.f.openingHour || a.index - b.index,
    );
  for (const { f } of ranked) {
    const offset = offsetAt(reference, f.zone);
    if (seenOffsets.has(offset)) continue;
    seenOffsets.add(offset);
    best.push(f);
    if (best.length === 3) break;
  }
  const [suggested = null, ...alternatives] = best;
  const problems: string[] = [];
  if (mine.closed > 0)
    problems.push(`${mine.closed} of ${sampled.times.length} fills fall while the exchange is closed (weekends, 17:00-18:00 New York)`);
  if (mine.dayMismatches > 0) problems.push(`${mine.dayMismatches} of ${sampled.days.length} trading days differ from the file's own dates`);
  const zones = best.map((f) => f.zone);
  const fitting = zones.length <= 1 ? zones.join('') : `${zones.slice(0, -1).join(', ')} or ${zones[zones.length - 1]}`;
  const message =
    `Read as ${chosen} time, ${problems.join(' and ')}. ` +
    (suggested ? `The times fit ${fitting}: choose the zone the file was exported in.` : "Check the file's time zone.");
  return { chosen: mine, checked, suggested, alternatives, message };
}
