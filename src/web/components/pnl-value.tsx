import { Text, type TextProps } from '@mantine/core';
import { formatUsd, toCents } from '../../domain/money';

/** In the notebook and the daily journal: green at 0 or more, red below (AA contrast in both themes). */
export const PNL_POSITIVE = 'light-dark(var(--mantine-color-teal-9), var(--mantine-color-teal-4))';
export const PNL_NEGATIVE = 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-4))';

export const pnlTone = (cents: number) => (cents >= 0 ? PNL_POSITIVE : PNL_NEGATIVE);

/** A decimal-string P&L with two decimals ("-$12.50"), coloured; '-' when there is none. */
export function PnlValue({ value, ...props }: { value: string | null | undefined } & TextProps & { 'data-testid'?: string }) {
  if (value === null || value === undefined) {
    return (
      <Text c="dimmed" {...props}>
        -
      </Text>
    );
  }
  const cents = toCents(value);
  return (
    <Text c={pnlTone(cents)} fw={600} ff="monospace" {...props}>
      {formatUsd(cents)}
    </Text>
  );
}
