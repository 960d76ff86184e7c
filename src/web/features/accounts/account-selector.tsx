import { Group, Text, type SelectProps } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LazySelect } from '../../components/lazy-select';
import { unassignedCountQuery, type AccountFilter } from '../../shared/api';
import { useAccounts } from './api';

export const ALL_TRADES = 'all';
export const UNASSIGNED_TRADES = 'unassigned';

// The unassigned count is read at most once per 60 s (mutations that change it invalidate it).
const UNASSIGNED_COUNT_STALE_MS = 60_000;

export interface AccountSelectorProps {
  value: AccountFilter;
  onChange: (value: AccountFilter) => void;
  /**
   * Offer 'Unassigned Trades' (the Trade Log). The entry, with its count, appears when such trades
   * exist; it also stays while it is the current choice. The dashboard's selector leaves it out.
   */
  withUnassigned?: boolean;
  label?: string;
  size?: SelectProps['size'];
  w?: SelectProps['w'];
}

/** All Trades, Unassigned Trades (N), then each account by name with the default starred. */
export function AccountSelector({ value, onChange, withUnassigned = false, label, size = 'sm', w = 260 }: AccountSelectorProps) {
  const { data: accounts = [] } = useAccounts();
  const { data: unassigned } = useQuery({
    ...unassignedCountQuery,
    enabled: withUnassigned,
    staleTime: UNASSIGNED_COUNT_STALE_MS,
  });
  const count = unassigned?.count ?? 0;
  const defaults = new Set(accounts.filter((a) => a.is_default).map((a) => a.id));

  const data = [
    { value: ALL_TRADES, label: 'All Trades' },
    ...(withUnassigned && (count > 0 || value === UNASSIGNED_TRADES)
      ? [{ value: UNASSIGNED_TRADES, label: count > 0 ? `Unassigned Trades (${count})` : 'Unassigned Trades' }]
      : []),
    ...accounts.map((a) => ({ value: a.id, label: a.is_default ? `${a.name} ★` : a.name })),
  ];

  const renderOption: SelectProps['renderOption'] = ({ option }) => {
    const isDefault = defaults.has(option.value);
    return (
      <Group gap={6} wrap="nowrap">
        <Text size="sm">{isDefault ? option.label.replace(/ ★$/, '') : option.label}</Text>
        {/* The same ★ as in the closed field, coloured (★ and ⭐ told the default apart twice). */}
        {isDefault && (
          <Text span size="sm" c="yellow.5" aria-label="Default account">
            ★
          </Text>
        )}
      </Group>
    );
  };

  return (
    <LazySelect
      data={data}
      value={data.some((d) => d.value === value) ? value : null}
      onChange={(next) => next && onChange(next)}
      allowDeselect={false}
      label={label}
      aria-label={label ? undefined : 'Account'}
      size={size}
      w={w}
      maw="100%"
      renderOption={renderOption}
      data-testid="account-selector"
    />
  );
}
