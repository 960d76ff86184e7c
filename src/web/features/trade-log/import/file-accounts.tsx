import { Badge, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { formatUsd, toCents } from '../../../../domain/money';
import type { TradingAccount } from '../../../shared/api';
import type { FileAccount } from './api';

export const SKIP = '__skip__';

const SOURCE_LABEL: Record<NonNullable<FileAccount['source']>, string> = {
  chosen: '',
  remembered: 'remembered',
  name: 'same name',
  skipped: '',
};

/**
 * A file with several accounts (a prop trader's evaluation accounts in one Orders export). Each
 * account of the file goes into the trading account chosen here, or is left out; the server remembers the choice for
 * the next file and preselects it (or an account with the same name).
 */
export function FileAccountsMapping({
  fileAccounts,
  accounts,
  onChange,
}: {
  fileAccounts: FileAccount[];
  accounts: TradingAccount[];
  onChange: (fileAccount: string, accountId: string) => void;
}) {
  const options = [...accounts.map((a) => ({ value: a.id, label: a.name })), { value: SKIP, label: 'Leave out (do not import)' }];
  return (
    <Stack gap={4} data-testid="import-file-accounts">
      <Title order={3} size="h6">
        Accounts in this file
      </Title>
      <Text size="xs" c="dimmed">
        Choose the trading account each account of the file goes into. Your choice is remembered for the next file.
      </Text>
      <Table.ScrollContainer minWidth={560} type="native">
        <Table withTableBorder fz="sm" verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Account in the file</Table.Th>
              <Table.Th ta="right">Trades</Table.Th>
              <Table.Th ta="right">New</Table.Th>
              <Table.Th ta="right">Net PnL</Table.Th>
              <Table.Th miw={220}>Import into</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {fileAccounts.map((f) => (
              <Table.Tr key={f.name} data-testid="import-file-account">
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {f.name || '(no account)'}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{f.trades}</Table.Td>
                <Table.Td ta="right">{f.source === 'skipped' ? 0 : f.new_trades}</Table.Td>
                <Table.Td ta="right">{f.source === 'skipped' ? '—' : formatUsd(toCents(f.totals.net_pnl))}</Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Select
                      aria-label={`Trading account for ${f.name || 'the file'}`}
                      placeholder="Choose a trading account"
                      data={options}
                      value={f.source === 'skipped' ? SKIP : f.account_id}
                      onChange={(value) => value && onChange(f.name, value)}
                      allowDeselect={false}
                      error={f.account_id === null && f.source !== 'skipped' ? true : undefined}
                      size="xs"
                      w={220}
                    />
                    {f.source && SOURCE_LABEL[f.source] && (
                      <Badge size="xs" variant="light" color="gray">
                        {SOURCE_LABEL[f.source]}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
