import { Anchor, Button, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort, IconFileTypeCsv } from '@tabler/icons-react';
import {
  createSortedRowModel,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  tableFeatures,
  useTable,
  type ColumnDef,
  type RowData,
  type SortingState,
} from '@tanstack/react-table';
import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { downloadCsv, type CsvValue } from './csv';
import classes from './reports.module.css';

/**
 * A report's table: sortable by any column (TanStack Table, as the Trade Log's columns), scrolling inside its
 * card on a phone, a link in each row's first cell to its trades in the Trade Log, and its data as CSV.
 */
const features = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { basic: sortFn_basic, alphanumeric: sortFn_alphanumeric },
});

export interface ReportColumn<T> {
  id: string;
  header: string;
  /** The value sorted on and written to the CSV (cents as dollars, see `csv`); null sorts last. */
  value: (row: T) => number | string | null;
  /** What the cell shows; the value as text when left out. */
  render?: (row: T) => ReactNode;
  /** The CSV's value, when it differs from `value` (money in dollars rather than cents). */
  csv?: (row: T) => CsvValue;
  numeric?: boolean;
}

interface ReportTableProps<T> {
  caption: string;
  rows: readonly T[];
  columns: ReadonlyArray<ReportColumn<T>>;
  /** The first column links here (the row's trades in the Trade Log). */
  rowHref?: (row: T) => string;
  rowLabel?: (row: T) => string;
  csvName: string;
  /** Sorted by this column at first; none keeps the given order. */
  initialSort?: { id: string; desc: boolean };
  testId?: string;
  /** Shown beside the CSV button (a note of trades left out). */
  footer?: ReactNode;
  /** Only for screen readers: a chart's data. */
  hidden?: boolean;
}

export function ReportTable<T extends RowData>({
  caption,
  rows,
  columns,
  rowHref,
  rowLabel,
  csvName,
  initialSort,
  testId,
  footer,
  hidden,
}: ReportTableProps<T>) {
  const [sorting, setSorting] = useState<SortingState>(initialSort ? [initialSort] : []);
  const columnDefs = useMemo<Array<ColumnDef<typeof features, T>>>(
    () =>
      columns.map((column) => ({
        id: column.id,
        header: column.header,
        accessorFn: (row: T) => column.value(row) ?? undefined,
        sortFn: column.numeric ? 'basic' : 'alphanumeric',
        sortUndefined: 'last',
        sortDescFirst: column.numeric,
      })),
    [columns],
  );
  const data = useMemo(() => [...rows], [rows]);
  const table = useTable(
    {
      features,
      columns: columnDefs,
      data,
      state: { sorting },
      onSortingChange: setSorting,
    },
    (state) => ({ sorting: state.sorting }),
  );
  const sorted = table.getRowModel().rows.map((r) => r.original);

  const exportCsv = () =>
    downloadCsv(
      csvName,
      columns.map((c) => c.header),
      sorted.map((row) => columns.map((c) => (c.csv ? c.csv(row) : c.value(row)))),
    );

  const body = (
    <div
      className={hidden ? undefined : classes.tableScroll}
      tabIndex={hidden ? undefined : 0}
      role={hidden ? undefined : 'region'}
      aria-label={hidden ? undefined : caption}
    >
      <Table
        striped
        highlightOnHover={!hidden}
        verticalSpacing={6}
        fz={{ base: 'xs', sm: 'sm' }}
        className={classes.reportTable}
        data-testid={testId}
      >
        <caption className={classes.caption}>{caption}</caption>
        <Table.Thead>
          <Table.Tr>
            {table.getHeaderGroups()[0]!.headers.map((header, index) => {
              const column = columns[index]!;
              const direction = header.column.getIsSorted();
              return (
                <Table.Th
                  key={header.id}
                  aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'}
                  ta={column.numeric ? 'right' : 'left'}
                >
                  {hidden ? (
                    column.header
                  ) : (
                    <UnstyledButton
                      onClick={header.column.getToggleSortingHandler()}
                      className={classes.sortButton}
                      data-testid={`sort-${column.id}`}
                    >
                      {column.header}
                      {direction === 'asc' ? (
                        <IconArrowUp size={14} aria-hidden="true" />
                      ) : direction === 'desc' ? (
                        <IconArrowDown size={14} aria-hidden="true" />
                      ) : (
                        <IconArrowsSort size={14} aria-hidden="true" className={classes.sortIdle} />
                      )}
                      <VisuallyHidden>{direction ? `, sorted ${direction === 'asc' ? 'ascending' : 'descending'}` : ', sort'}</VisuallyHidden>
                    </UnstyledButton>
                  )}
                </Table.Th>
              );
            })}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sorted.map((row, rowIndex) => (
            <Table.Tr key={rowIndex} data-testid={testId ? `${testId}-row` : undefined}>
              {columns.map((column, index) => {
                const content = column.render ? column.render(row) : formatCell(column.value(row));
                return index === 0 ? (
                  <Table.Th key={column.id} scope="row" fw={500}>
                    {rowHref && !hidden ? (
                      <Anchor component={Link} to={rowHref(row)} inherit aria-label={rowLabel ? `${rowLabel(row)}: open in Trade Log` : undefined}>
                        {content}
                      </Anchor>
                    ) : (
                      content
                    )}
                  </Table.Th>
                ) : (
                  <Table.Td key={column.id} ta={column.numeric ? 'right' : 'left'} className={column.numeric ? classes.numeric : undefined}>
                    {content}
                  </Table.Td>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );

  if (hidden) return <VisuallyHidden>{body}</VisuallyHidden>;
  return (
    <div className={classes.tableBlock}>
      {body}
      <div className={classes.tableFooter}>
        {footer ?? <span />}
        <Button
          variant="default"
          size="compact-sm"
          leftSection={<IconFileTypeCsv size={16} aria-hidden="true" />}
          onClick={() => void exportCsv()}
          disabled={rows.length === 0}
          className={classes.noPrint}
          aria-label={`Export CSV: ${caption}`}
          data-testid={testId ? `${testId}-csv` : 'export-csv'}
        >
          Export CSV
        </Button>
      </div>
    </div>
  );
}

function formatCell(value: number | string | null): ReactNode {
  if (value === null) {
    return (
      <Text span c="dimmed" inherit>
        —
      </Text>
    );
  }
  return String(value);
}
