/**
 * Tags an import adds for its own bookkeeping (see importTags in domain/fills): they describe the file and the fill
 * counts, not the trader's decision. Kept in lower case: tags compare case-insensitively (an import's Long and an
 * older screen's LONG are one tag).
 */
export const IMPORT_BOOKKEEPING_TAGS: ReadonlySet<string> = new Set(
  ['Imported', 'Direct-Parse', 'Winner', 'Loser', 'Breakeven', 'High-Impact', 'Medium-Impact', 'Low-Impact', 'Multi-Position', 'Long', 'Short'].map(
    (t) => t.toLowerCase(),
  ),
);

/** What telling an import's tag from the trader's own needs of a trade. */
export interface ImportTagTrade {
  symbol: string;
  /** The session, which an import also adds as a tag. */
  period: string;
  /** Set on a trade that came from a file, a connection or a backup; null on one typed by hand. */
  import_source: string | null;
}

/**
 * Whether a trade's tag is one its import added rather than the trader: on an imported trade, a bookkeeping tag or the
 * trade's own instrument or session. A trade typed by hand has only the trader's tags, whatever their names.
 */
export function isImportTag(tag: string, trade: ImportTagTrade): boolean {
  if (trade.import_source === null) return false;
  const name = tag.trim().toLowerCase();
  return IMPORT_BOOKKEEPING_TAGS.has(name) || name === trade.symbol.trim().toLowerCase() || name === trade.period.trim().toLowerCase();
}

/** The trade's tags without those its import added, in their order. */
export function ownTags(tags: readonly string[], trade: ImportTagTrade): string[] {
  return tags.filter((tag) => !isImportTag(tag, trade));
}
