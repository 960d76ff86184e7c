/**
 * A trade's side, the one spelling every module uses: Long or Short, apart from its setup (trade_type, which sample
 * files and older imports filled with LONG/SHORT). One reading of the words brokers and traders use, so the trade
 * form, the importers, the round-trip arithmetic, a JSON backup and the migration that moved stored sides out of
 * trade_type agree.
 */

export const TRADE_SIDES = ['Long', 'Short'] as const;
export type TradeSide = (typeof TRADE_SIDES)[number];

const SIDE_WORDS: Readonly<Record<string, TradeSide>> = { long: 'Long', buy: 'Long', short: 'Short', sell: 'Short' };

/** 'LONG', 'long', 'Buy', ' sell ' as a side; anything else (a setup, '', a number) is null. */
export function readTradeSide(value: unknown): TradeSide | null {
  if (typeof value !== 'string') return null;
  return SIDE_WORDS[value.trim().toLowerCase()] ?? null;
}

/** Whether a setup as typed is a side word, which belongs in the side instead. */
export const isSideWord = (text: string): boolean => readTradeSide(text) !== null;

/**
 * The side and the setup of a trade as it should be stored: a setup that is a side word (a sample's 'LONG', an old
 * backup's 'Short') moves into the side when the trade has none, and leaves the setup empty either way (the side the
 * trade already has, from its fills, is the better witness). The migration that split sides from setups applied the
 * same rule to stored trades.
 */
export function separateSideFromSetup(side: TradeSide | null, setup: string): { side: TradeSide | null; setup: string } {
  const fromSetup = readTradeSide(setup);
  if (fromSetup === null) return { side, setup };
  return { side: side ?? fromSetup, setup: '' };
}
