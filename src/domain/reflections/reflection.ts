import { formatWeekOfLabel, getDayName, type CalendarDay } from '../dates/calendar-day';
import type { Cents } from '../money';
import { formatTradeType } from '../trades/trade-options';
import type { TradeSide } from '../trades/side';
import { IMPORT_BOOKKEEPING_TAGS } from '../trades/import-tags';

/**
 * A reflection is a trade seen on the Reflect page: the trade's facts, whether it
 * followed the trader's rules, a description and up to four tags. What the trader changes (rule adherence, tags,
 * description) is an override kept on the server per trade; everything else is derived from the trade.
 */

export interface ReflectionTrade {
  id: string;
  /** The trading day, yyyy-MM-dd. */
  tradeDate: CalendarDay;
  symbol: string;
  /** The session (stored as `period`). */
  session: string;
  /** The setup (the spec's type). */
  tradeType: string;
  /** Long or Short, apart from the setup. */
  side?: TradeSide | null;
  status: string;
  pnlCents: Cents;
  notes: string;
  link: string;
  tags: readonly string[];
  /** The first image attached to the trade, if any. */
  imageUrl?: string | null;
  /** Orders trades within a day (newest first on the page). */
  createdAt?: string;
  accountId?: string | null;
}

export interface ReflectionOverride {
  followedRules: boolean | null;
  /** The trader's edited tag list; null means "derive them". */
  tags: string[] | null;
  /** Overrides the trade's notes; null means "use the notes". */
  description: string | null;
}

export type ReflectionResult = 'Win' | 'Loss' | 'BE';

export interface Reflection {
  /** r-{tradeId}. */
  id: string;
  tradeId: string;
  date: CalendarDay;
  day: string;
  /** 'Week of Mar 9, 2026': the Monday-start week of the trade. */
  week: string;
  symbol: string;
  session: string;
  type: string;
  side: TradeSide | null;
  result: ReflectionResult;
  followedRules: boolean | null;
  description: string;
  imageUrl: string | null;
  tags: string[];
  link: string;
  pnlCents: Cents;
  accountId: string | null;
}

/** Reflection tags max 4 per trade. */
export const MAX_REFLECTION_TAGS = 4;
export const NO_DESCRIPTION = 'No description provided';

/**
 * The keywords are matched as the spec lists them,
 * as case-insensitive substrings of the trade type and the notes ('IFVG' is an FVG setup, 'levels' a key level).
 */
export const REFLECTION_KEYWORD_TAGS: ReadonlyArray<readonly [keyword: string, tag: string]> = [
  ['sweep', 'Sweep'],
  ['momentum', 'Momentum'],
  ['level', 'Key Level'],
  ['fvg', 'FVG'],
  ['macro', 'Macro'],
  ['data', 'News/Data'],
  ['exit', 'Exit Strategy'],
];

/**
 * The derived tags, at most 4, first wins, duplicates dropped case-insensitively: the setup (trade type), the
 * session, the trader's own tags on the trade, then the keyword tags.
 */
export function deriveReflectionTags(trade: Pick<ReflectionTrade, 'tradeType' | 'session' | 'notes' | 'tags' | 'symbol'>): string[] {
  // The type as the screens write it: a sample's LONG and an import's Long are one tag, 'Long'.
  const candidates: string[] = [formatTradeType(trade.tradeType), trade.session];
  // An import's bookkeeping tags describe the file, not the trader's decision: left out, they leave room for the
  // tags that matter (FOMO, Revenge, A+ ...).
  for (const tag of trade.tags) {
    if (!IMPORT_BOOKKEEPING_TAGS.has(tag.toLowerCase()) && tag.toLowerCase() !== trade.symbol.toLowerCase()) candidates.push(tag);
  }
  const text = `${trade.tradeType} ${trade.notes}`.toLowerCase();
  for (const [keyword, tag] of REFLECTION_KEYWORD_TAGS) if (text.includes(keyword)) candidates.push(tag);
  return uniqueTags(candidates).slice(0, MAX_REFLECTION_TAGS);
}

/** Trims, drops blanks and case-insensitive repeats, keeps the first spelling. */
export function uniqueTags(tags: Iterable<string>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    const key = tag.toLowerCase();
    if (!tag || seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  return out;
}

function toResult(status: string): ReflectionResult {
  return status === 'Win' ? 'Win' : status === 'Loss' ? 'Loss' : 'BE';
}

const IMAGE_URL = /^https?:\/\/[^\s]+\.(png|jpe?g|gif|webp)(\?[^\s]*)?$/i;

export function toReflection(trade: ReflectionTrade, override?: ReflectionOverride | null): Reflection {
  const notes = trade.notes.trim();
  const description = override?.description?.trim() || notes || NO_DESCRIPTION;
  const link = trade.link.trim();
  return {
    id: `r-${trade.id}`,
    tradeId: trade.id,
    date: trade.tradeDate,
    day: getDayName(trade.tradeDate),
    week: formatWeekOfLabel(trade.tradeDate),
    symbol: trade.symbol,
    session: trade.session,
    type: formatTradeType(trade.tradeType),
    side: trade.side ?? null,
    result: toResult(trade.status),
    followedRules: override?.followedRules ?? null,
    description,
    imageUrl: trade.imageUrl ?? (IMAGE_URL.test(link) ? link : null),
    tags: override?.tags ? uniqueTags(override.tags).slice(0, MAX_REFLECTION_TAGS) : deriveReflectionTags(trade),
    link,
    pnlCents: trade.pnlCents,
    accountId: trade.accountId ?? null,
  };
}

/** Rule adherence cycles followed, not followed, unset. */
export function cycleRuleAdherence(current: boolean | null): boolean | null {
  if (current === null) return true;
  if (current === true) return false;
  return null;
}

/** The tags left after removing one (removing a tag saves the change). */
export function removeReflectionTag(tags: readonly string[], tag: string): string[] {
  return tags.filter((t) => t.toLowerCase() !== tag.toLowerCase());
}

export interface ReflectionDateGroup {
  date: CalendarDay;
  day: string;
  reflections: Reflection[];
  pnlCents: Cents;
}

/** Newest day first; within a day the order given (newest trade first). */
export function groupReflectionsByDate(reflections: readonly Reflection[]): ReflectionDateGroup[] {
  const groups = new Map<CalendarDay, ReflectionDateGroup>();
  for (const reflection of reflections) {
    let group = groups.get(reflection.date);
    if (!group) {
      group = { date: reflection.date, day: reflection.day, reflections: [], pnlCents: 0 };
      groups.set(reflection.date, group);
    }
    group.reflections.push(reflection);
    group.pnlCents += reflection.pnlCents;
  }
  return [...groups.values()].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
}
