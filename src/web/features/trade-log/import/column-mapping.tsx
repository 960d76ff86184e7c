import { Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ColumnMapping } from '../../../../domain/importers';

type Field = Exclude<keyof ColumnMapping, 'kind'>;

interface FieldSpec {
  field: Field;
  label: string;
  required: boolean;
  description?: string;
  /** Header names (lower case, any part) that suggest this field. */
  hints: RegExp;
}

const FILL_FIELDS: FieldSpec[] = [
  {
    field: 'time',
    label: 'Date and time',
    required: true,
    description: 'Of the fill (or the date, with a separate time column)',
    hints: /date|time|when|executed|filled/,
  },
  { field: 'clock', label: 'Time (if in its own column)', required: false, hints: /^time$/ },
  { field: 'symbol', label: 'Symbol', required: true, hints: /symbol|ticker|contract|instrument|market|product/ },
  {
    field: 'side',
    label: 'Side (buy or sell)',
    required: false,
    description: 'Leave empty when the quantity is negative for sells',
    hints: /side|action|b\/s|buy.?sell|direction/,
  },
  { field: 'quantity', label: 'Quantity', required: true, hints: /qty|quantity|shares|size|contracts|amount/ },
  { field: 'price', label: 'Price', required: true, hints: /price/ },
  { field: 'commission', label: 'Commission and fees', required: false, hints: /fee|commission|cost/ },
  { field: 'account', label: 'Account', required: false, hints: /account|acct/ },
];

const PNL_FIELDS: FieldSpec[] = [
  { field: 'time', label: 'Date (and time)', required: true, hints: /date|time|closed|when/ },
  {
    field: 'pnl',
    label: 'P&L',
    required: true,
    description: 'Before commission when a commission column is chosen',
    hints: /p&l|pnl|p\/l|profit|result|gain/,
  },
  { field: 'symbol', label: 'Symbol', required: false, hints: /symbol|ticker|contract|instrument|market/ },
  { field: 'commission', label: 'Commission and fees', required: false, hints: /fee|commission|cost/ },
];

/** A first guess from the header names, which the trader corrects. */
export function guessMapping(headers: string[], kind: ColumnMapping['kind'] = 'fills'): ColumnMapping {
  const fields = kind === 'fills' ? FILL_FIELDS : PNL_FIELDS;
  const taken = new Set<string>();
  const mapping: ColumnMapping = { kind, time: '' };
  for (const spec of fields) {
    const column = headers.find((h) => !taken.has(h) && spec.hints.test(h.toLowerCase()));
    // A separate time column only when the date column is not itself a date-time.
    if (spec.field === 'clock' && (!column || !/date/i.test(mapping.time))) continue;
    if (column) {
      mapping[spec.field] = column;
      taken.add(column);
    }
  }
  if (kind === 'fills' && !mapping.price && headers.some((h) => /p&l|pnl|profit/i.test(h))) return guessMapping(headers, 'pnl');
  return mapping;
}

/** Complete enough to be read (the server checks the same). */
export function isMappingComplete(mapping: ColumnMapping): boolean {
  const fields = mapping.kind === 'fills' ? FILL_FIELDS : PNL_FIELDS;
  return fields.every((spec) => !spec.required || Boolean(mapping[spec.field]));
}

/**
 * The columns of a CSV we do not know, mapped by the trader. The preview below follows every change;
 * the mapping is remembered by the file's header row once the trades are imported.
 */
export function ColumnMappingForm({
  headers,
  value,
  onChange,
  remembered,
  unknown,
}: {
  headers: string[];
  value: ColumnMapping;
  onChange: (mapping: ColumnMapping) => void;
  remembered: boolean;
  /** No format read the file: say so, as the guide does, before asking for its columns. */
  unknown: boolean;
}) {
  const fields = value.kind === 'fills' ? FILL_FIELDS : PNL_FIELDS;
  const options = headers.map((h) => ({ value: h, label: h }));
  return (
    <Paper withBorder p="sm" data-testid="import-column-mapping">
      <Stack gap="xs">
        <Title order={3} size="h6">
          Map the columns of this file
        </Title>
        <Text size="xs" c="dimmed">
          {remembered
            ? 'Read with the mapping you made for files with these columns. Change it here if needed.'
            : `${unknown ? 'Unknown file format. ' : ''}Tell Edgebook which column holds what. The preview follows each choice, and the mapping is remembered for the next file with these columns.`}
        </Text>
        <SegmentedControl
          aria-label="What each row of the file is"
          data={[
            { value: 'fills', label: 'One fill per row' },
            { value: 'pnl', label: 'One P&L per row' },
          ]}
          value={value.kind}
          onChange={(kind) => onChange(guessMapping(headers, kind as ColumnMapping['kind']))}
          size="xs"
          w="fit-content"
        />
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xs">
          {fields.map((spec) => (
            <Select
              key={spec.field}
              label={spec.label}
              description={spec.description}
              withAsterisk={spec.required}
              placeholder={spec.required ? 'Choose a column' : 'None'}
              data={options}
              value={value[spec.field] ?? null}
              onChange={(column) => {
                const next = { ...value };
                if (column) next[spec.field] = column;
                else if (spec.field === 'time') next.time = '';
                else delete next[spec.field];
                onChange(next);
              }}
              clearable={!spec.required}
              // Mantine hides its clear button from assistive technology; here it is the way to unmap a column.
              clearButtonProps={{ 'aria-label': `Clear ${spec.label}`, 'aria-hidden': false }}
              allowDeselect={!spec.required}
              size="xs"
              data-testid={`mapping-${spec.field}`}
            />
          ))}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
