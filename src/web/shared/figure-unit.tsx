import { SegmentedControl } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { STORAGE_KEYS } from '../lib/storage-keys';

export type FigureUnit = 'usd' | 'r';

/** Figures in dollars or in R-multiples: one preference for every screen that offers the switch. */
export function useFigureUnit() {
  return useLocalStorage<FigureUnit>({
    key: STORAGE_KEYS.figureUnit,
    defaultValue: 'usd',
    getInitialValueInEffect: false,
    serialize: (value) => value,
    deserialize: (value) => (value === 'r' ? 'r' : 'usd'),
  });
}

/** The $ / R switch. */
export function FigureUnitSwitch({ size = 'xs' }: { size?: 'xs' | 'sm' }) {
  const [unit, setUnit] = useFigureUnit();
  return (
    <SegmentedControl
      size={size}
      value={unit}
      onChange={(value) => setUnit(value === 'r' ? 'r' : 'usd')}
      data={[
        { value: 'usd', label: '$' },
        { value: 'r', label: 'R' },
      ]}
      aria-label="Show figures in dollars or in R"
      data-testid="figure-unit"
    />
  );
}
