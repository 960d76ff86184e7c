import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { accountsQuery, type AccountFilter } from '../../../shared/api';

/**
 * Spec part 1 §2.5: All Trades plus each account by name, the default account marked with a star.
 * (The dashboard's own selector; the accounts feature's selector replaces it once that feature exists.)
 */
export function AccountSelect({ value, onChange }: { value: AccountFilter; onChange: (value: AccountFilter) => void }) {
  const { data: accounts = [] } = useQuery(accountsQuery);
  const data = [
    { value: 'all', label: 'All Trades' },
    ...accounts.map((a) => ({ value: a.id, label: a.is_default ? `${a.name} ★` : a.name })),
  ];
  const known = data.some((d) => d.value === value);
  return (
    <Select
      aria-label="Trading account"
      data={data}
      value={known ? value : 'all'}
      onChange={(next) => onChange(next ?? 'all')}
      allowDeselect={false}
      size="xs"
      w={170}
      comboboxProps={{ withinPortal: true }}
      data-testid="calendar-account-select"
    />
  );
}
