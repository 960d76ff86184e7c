import type { Cents } from '../../domain/cents';

export type Tone = 'positive' | 'negative' | 'warning' | 'neutral';

/**
 * Text colours with WCAG AA contrast on cards in both themes (Mantine's teal-6 or yellow-6 on white are not):
 * darker shades in light mode, lighter ones in dark mode.
 */
export const TONE_COLOR: Record<Tone, string> = {
  positive: 'light-dark(var(--mantine-color-teal-9), var(--mantine-color-teal-4))',
  negative: 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-4))',
  warning: 'light-dark(#8a5a00, var(--mantine-color-yellow-4))',
  neutral: 'var(--mantine-color-dimmed)',
};

/** Profit green, loss red, flat dimmed. */
export function pnlColor(cents: Cents | null | undefined): string | undefined {
  if (cents === null || cents === undefined) return undefined;
  if (cents > 0) return TONE_COLOR.positive;
  if (cents < 0) return TONE_COLOR.negative;
  return TONE_COLOR.neutral;
}
