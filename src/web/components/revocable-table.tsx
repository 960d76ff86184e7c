import { Button, Table } from '@mantine/core';
import type { ReactNode } from 'react';

interface Revoker {
  isPending: boolean;
  /** The id being revoked while a revocation runs. */
  variables?: string;
  mutate: (id: string) => void;
}

interface RevocableTableProps<T extends { id: string }> {
  rows: readonly T[];
  /** The columns' headings; the last column, without one, holds Revoke. */
  headings: readonly string[];
  /** A row's cells, one per heading. */
  cells: (row: T) => ReactNode[];
  /** Whether a row can still be revoked (it answers now). */
  live: (row: T) => boolean;
  revoke: Revoker;
  /** Test ids: the table's, a row's (`${testId}`) and its button's (`${testId}-revoke`). */
  tableTestId: string;
  rowTestId: string;
}

/** A list in Settings of what the trader has given someone (a link, a mentor's seat), each with Revoke while it is live. */
export function RevocableTable<T extends { id: string }>({ rows, headings, cells, live, revoke, tableTestId, rowTestId }: RevocableTableProps<T>) {
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table verticalSpacing="xs" data-testid={tableTestId}>
        <Table.Thead>
          <Table.Tr>
            {headings.map((heading) => (
              <Table.Th key={heading}>{heading}</Table.Th>
            ))}
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id} data-testid={rowTestId}>
              {cells(row).map((cell, i) => (
                <Table.Td key={headings[i]}>{cell}</Table.Td>
              ))}
              <Table.Td>
                {live(row) && (
                  <Button
                    size="xs"
                    color="red"
                    variant="light"
                    loading={revoke.isPending && revoke.variables === row.id}
                    onClick={() => revoke.mutate(row.id)}
                    data-testid={`${rowTestId}-revoke`}
                  >
                    Revoke
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
