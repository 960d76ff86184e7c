/**
 * A large Edgebook JSON backup (GET /api/trades/export's shape) made up for tests and the bench: `count` trades of
 * futures contracts over weekdays from 2026-01-05, each with its executions, about 300 bytes a row as exported.
 * Deterministic, so every run reads the same file.
 */
export function backupRows(count: number): Array<Record<string, unknown>> {
  const symbols = ['MNQ', 'NQ', 'ES', 'MES'];
  const rows: Array<Record<string, unknown>> = [];
  for (let i = 0; i < count; i++) {
    const day = Math.floor(i / 40);
    const date = new Date(Date.UTC(2026, 0, 5 + Math.floor(day / 5) * 7 + (day % 5)));
    const iso = date.toISOString().slice(0, 10);
    const minute = 30 + (i % 40) * 6;
    const entry = `${iso}T${String(14 + Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:05.000Z`;
    const exit = entry.replace(':05.000Z', ':45.000Z');
    const pnl = ((i * 37) % 401) - 180;
    const symbol = symbols[i % symbols.length]!;
    rows.push({
      id: `bk-${i}`,
      date: iso,
      trade_date: `${iso}T12:00:00.000Z`,
      symbol,
      period: minute < 120 ? 'AM' : 'PM',
      trade_type: i % 3 === 0 ? 'A/A+' : '',
      pnl: `${pnl}.50`,
      commission: '2.14',
      link: '',
      notes: i % 10 === 0 ? `note ${i}` : '',
      tags: i % 2 ? ['Scalp'] : [],
      side: i % 2 ? 'Long' : 'Short',
      contract: `${symbol}M6`,
      entry_time: entry,
      exit_time: exit,
      entry_price: '21000.25',
      exit_price: '21003.75',
      quantity: String(1 + (i % 3)),
      gross_pnl: `${pnl + 2}.64`,
      import_source: 'tradovate-orders',
      created_at: entry,
    });
  }
  return rows;
}
