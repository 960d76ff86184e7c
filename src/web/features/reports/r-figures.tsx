import { Text } from '@mantine/core';
import { describeWithoutRisk, formatR } from '../../../domain/risk/format-r';
import { pnlColor } from '../../lib/tone';

/**
 * What the reports in R share: an R as the Overview writes it ('+1.25R', coloured by its sign), a
 * chart's axis in R, and the words for trades without a planned risk.
 */
export const formatRAxis = (r: number) => `${r + 0}R`;

export const rText = (r: number | null) => (r === null ? '—' : formatR(r));

export function RValue({ r, fw = 600, size = 'sm' }: { r: number | null; fw?: number; size?: string }) {
  return (
    <Text span size={size} fw={fw} c={r === null ? undefined : pnlColor(r)}>
      {rText(r)}
    </Text>
  );
}

/** A report in R of trades none of which has a planned risk. */
export function NoPlannedRisk({ trades }: { trades: number }) {
  return (
    <Text c="dimmed" ta="center" py="xl" data-testid="r-empty">
      {trades === 1 ? 'This trade has no planned risk' : `None of these ${trades.toLocaleString('en-US')} trades has a planned risk`}: set a stop or a
      dollar risk on them, or a default in the Trade Log&apos;s Risk defaults.
    </Text>
  );
}

/** "Computed from 42 trades with a planned risk; 12 trades without a planned risk, left out." */
export function describeRBasis(withRisk: number, withoutRisk: number): string {
  return `In R: ${withRisk.toLocaleString('en-US')} trade${withRisk === 1 ? '' : 's'} with a planned risk${withoutRisk > 0 ? `; ${describeWithoutRisk(withoutRisk)}, left out` : ''}.`;
}
