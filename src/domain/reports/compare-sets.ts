/** Compare's sets by letter: A and B always, C and D when the trader adds them. */
export const COMPARE_SET_KEYS = ['a', 'b', 'c', 'd'] as const;
export type CompareSetKey = (typeof COMPARE_SET_KEYS)[number];
export const MAX_COMPARE_SETS = COMPARE_SET_KEYS.length;
