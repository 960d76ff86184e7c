import { formatUsd, type Cents } from '../../../domain/cents';
import { formatWinRate as formatDomainWinRate } from '../../../domain/stats';
import { TONE_COLOR } from '../../lib/tone';

export { formatUsd };
export { plural } from '../../../domain/text';

/** '+$1,250.00' / '-$80.50' / '$0.00': the sign a trader reads first. */
export function formatSignedUsd(cents: Cents): string {
  return cents > 0 ? `+${formatUsd(cents)}` : formatUsd(cents);
}

export { formatCompactUsd, formatCompactWinRate } from '../../../domain/calendar/compact-figures';

export { TONE_COLOR, pnlColor, type Tone } from '../../lib/tone';

/** The tone of a win-rate band (60+ green, 50+ yellow, below red). */
export const BAND_TONE = { green: TONE_COLOR.positive, yellow: TONE_COLOR.warning, red: TONE_COLOR.negative } as const;
/** Ring and bar fills for the same bands (graphics need 3:1 only). */
export const BAND_FILL = { green: 'teal.6', yellow: 'yellow.6', red: 'red.6' } as const;

/** A win rate, or '—' when nothing was won or lost (break-evens only, or no trades); the domain's one format. */
export function formatWinRate(winRate: number | null, decided = 1): string {
  return formatDomainWinRate(winRate, decided);
}
