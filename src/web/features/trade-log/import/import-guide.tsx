import { Code, Group, List, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { listFormats } from '../../../../domain/importers';

const FORMATS = listFormats();

/**
 * The 'Trade Import Guide' dialog. Every format the importer reads, with the columns it
 * needs, straight from the importer registry so the guide cannot fall behind the code.
 */
export function ImportGuide({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Trade Import Guide" size="xl" data-testid="import-guide">
      <Stack gap="md">
        <Text size="sm">
          Export your trades from your platform as CSV (or a Trade Log JSON backup) and choose Import. Edgebook recognises the format from the header
          row; you can pick another format in the preview if it guessed wrong.
        </Text>
        <Table striped withTableBorder verticalSpacing="xs" data-testid="import-guide-formats">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Format</Table.Th>
              <Table.Th>Expected columns</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {FORMATS.map((format) => (
              <Table.Tr key={format.id}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {format.label}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {format.columns.map((column) => (
                      <Code key={column}>{column}</Code>
                    ))}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Title order={3} size="h5">
          How trades are built
        </Title>
        <List size="sm" spacing={4}>
          <List.Item>
            Fills become round trips per account and contract, first in first out: a trade opens when the position leaves flat and ends when it is
            flat again. A fill that reverses the position closes one trade and opens the next.
          </List.Item>
          <List.Item>
            P&amp;L uses the contract's dollars per point (NQ 20, MNQ 2, ES 50, MES 5, YM 5, MYM 0.5, RTY 50, M2K 5, and more); commissions and fees
            are subtracted where the file has them, so PnL is net. Exports without costs (Tradovate, TopstepX orders) take them from the trading
            account's fee schedule, shown and editable in the preview.
          </List.Item>
          <List.Item>
            Files whose times carry no time zone (Tradovate, NinjaTrader) are read in the time zone you choose in the preview. The session comes from
            the entry time in New York; the day is the exchange's trading day (futures entered from 18:00 New York time count for the next day, as
            brokers and prop firms count them) unless you choose the calendar day in the dialog or in your profile settings.
          </List.Item>
          <List.Item>
            Importing the same file again, an export that overlaps an earlier one, or another export of the same account (Orders after Performance)
            adds no duplicates to the account.
          </List.Item>
          <List.Item>
            A file with several accounts (an Orders export of evaluation accounts) goes into the trading accounts you choose for each; the choice is
            remembered.
          </List.Item>
          <List.Item>
            Any other CSV: choose "Map the columns myself" (or wait for the dialog to offer it) and tell Edgebook which column holds the time, symbol,
            side, quantity, price and commission, or one P&amp;L per row. The mapping is remembered for the next file with the same columns.
          </List.Item>
          <List.Item>
            Positions still open at the end of the file are shown but not imported. Rows that cannot be read are listed with their row number and
            reason before anything is imported.
          </List.Item>
          <List.Item>A CSV needs a header row and at least one data row; a JSON backup must be an array of trades.</List.Item>
        </List>
      </Stack>
    </Modal>
  );
}
