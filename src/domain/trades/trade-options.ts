import { readTradeSide } from './side';

/** Offered before the user adds their own (user_trade_preferences). */
export const DEFAULT_TRADE_TYPES = [
  'A/A+',
  'Reversal',
  'Momentum',
  'IFVG',
  'Support/Resistance',
  'Breakout',
  'Pullback',
  'Trend Continuation',
] as const;

/**
 * The default sessions, and Overnight: imported futures trades are labelled by the exchange's sessions (Overnight,
 * AM, Lunch, PM, After Hours), so each of those is a session the trader can choose too.
 */
export const DEFAULT_SESSIONS = ['AM', 'PM', 'Lunch', 'Power Hour', 'Pre-Market', 'After Hours', 'Overnight'] as const;

export const DEFAULT_TAGS = ['Winner', 'Loser', 'Breakeven', 'Scalp', 'Swing', 'Day Trade', 'NQ', 'ES', 'YM', 'RTY'] as const;

/**
 * A trade's type as the screens write it. The spec's samples store LONG/SHORT and imports Long/Short ('Long' beside
 * 'LONG'); stored as they came, both read 'Long' and 'Short'. Setups ('A/A+', 'Breakout') are shown
 * as typed.
 */
export function formatTradeType(type: string): string {
  const side = type.trim().toLowerCase();
  return side === 'long' ? 'Long' : side === 'short' ? 'Short' : type;
}

/**
 * The choices of a Type field (Add/Edit Trade, inline edit): each option labelled as formatTradeType writes it, and
 * the trade's own types (`kept`: the stored one, the one chosen) choosable even when they are not among the options.
 * A stored 'LONG' reads 'Long', the way the rest of the app writes it, while its value stays 'LONG', so saving
 * without choosing another type does not rewrite it. Where an option already reads the same ('Long' among the
 * trader's types), the kept value takes its place: the side is offered once.
 */
export function tradeTypeChoices(options: readonly string[], ...kept: string[]): Array<{ value: string; label: string }> {
  const choices = options.map((value) => ({ value, label: formatTradeType(value) }));
  for (const value of kept) {
    if (!value || choices.some((c) => c.value === value)) continue;
    const label = formatTradeType(value);
    const same = choices.findIndex((c) => c.label === label);
    if (same >= 0) choices[same] = { value, label };
    else choices.push({ value, label });
  }
  return choices;
}

/** Table-level fallbacks, used when preferences cannot be read (with the exchange's After Hours). */
export const FALLBACK_TRADE_TYPES = ['A/A+', 'HTF liq sw', 'Lightbulb', 'Trend Continuation', 'Reversal', 'Breakout'] as const;
export const FALLBACK_SESSIONS = ['AM', 'Lunch', 'PM', 'After Hours', 'Overnight'] as const;

/** user_trade_preferences.preference_type. */
export type TradeOptionKind = 'trade_type' | 'session' | 'tag';

export type OptionChange =
  { ok: true; options: string[]; added: string } | { ok: false; ignored: true } | { ok: false; ignored: false; error: string };

const foldName = (name: string) => name.toLocaleLowerCase('en-US');
const SAME_NAME = (a: string, b: string) => foldName(a) === foldName(b);

/**
 * A type or session that already exists is refused; blank names are ignored. A tag must be
 * non-empty ('Please enter a tag name') and a duplicate gives 'Tag "X" already exists'. Duplicates are compared
 * case-insensitively so 'scalp' cannot sit beside 'Scalp'.
 */
export function addTradeOption(kind: TradeOptionKind, options: readonly string[], name: string): OptionChange {
  const trimmed = name.trim();
  if (trimmed === '') {
    return kind === 'tag' ? { ok: false, ignored: false, error: 'Please enter a tag name' } : { ok: false, ignored: true };
  }
  // Long and Short are the trade's side, a field of its own; a type named so would bring the confusion back.
  if (kind === 'trade_type' && readTradeSide(trimmed)) {
    return { ok: false, ignored: false, error: `"${trimmed}" is a side, not a setup: choose it as the trade's Side` };
  }
  if (options.some((option) => SAME_NAME(option, trimmed))) {
    const error =
      kind === 'trade_type'
        ? 'This trade type already exists'
        : kind === 'session'
          ? 'This session already exists'
          : `Tag "${trimmed}" already exists`;
    return { ok: false, ignored: false, error };
  }
  return { ok: true, options: [...options, trimmed], added: trimmed };
}

/** A type or session used by any trade cannot be removed. Returns the refusal, or null if allowed. */
export function checkTradeOptionRemoval(name: string, valuesInUse: Iterable<string>): string | null {
  for (const value of valuesInUse) {
    if (value === name) return `Cannot remove "${name}" - it's being used by existing trades`;
  }
  return null;
}

/**
 * Tags arrive as an array or a comma-separated string. Trimmed, blanks dropped, duplicates
 * (case-insensitive) dropped keeping the first spelling.
 */
export function parseTags(input: unknown): string[] {
  let parts: unknown[];
  if (Array.isArray(input)) parts = input;
  else if (typeof input === 'string') parts = input.split(',');
  else return [];
  // One set of folded names: comparing each tag with every earlier one was quadratic, and a backup row with
  // 200,000 tags held the server at full CPU for minutes.
  const tags: string[] = [];
  const seen = new Set<string>();
  for (const part of parts) {
    if (typeof part !== 'string' && typeof part !== 'number') continue;
    const tag = String(part).trim();
    const key = foldName(tag);
    if (tag !== '' && !seen.has(key)) {
      seen.add(key);
      tags.push(tag);
    }
  }
  return tags;
}

/**
 * A trade's tags with `added` put after its own, each only once (case-insensitive: a trade tagged "fomo" is not tagged
 * "FOMO" again); its own spellings and order are kept.
 */
export function addTags(current: readonly string[], added: readonly string[]): string[] {
  return parseTags([...current, ...added]);
}

/** A trade's tags without `removed` (case-insensitive), the others in their order. */
export function removeTags(current: readonly string[], removed: readonly string[]): string[] {
  const gone = new Set(removed.map((tag) => foldName(tag.trim())));
  return current.filter((tag) => !gone.has(foldName(tag)));
}
