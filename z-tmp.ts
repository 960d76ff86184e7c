import { readFileSync } from 'node:fs';
import { parseImport } from './src/domain/importers';
import { viewTrade } from './src/domain/importers/testing';
for (const f of ['ibkr-activity/stephenkgli-trading-records__ibkr_activity.csv', 'thinkorswim-statement/tradenote__TD_Ameritrade.csv']) {
  const r = parseImport(readFileSync('/work/shared/fixtures/brokers/' + f, 'utf8'), { timeZone: 'America/New_York' });
  if (!r.ok) { console.log(r); continue; }
  console.log(r.format, r.rowCount, r.issues, r.ignored, r.openPositions.map(p => [p.contract, p.side, p.quantity.toString(), p.averagePrice.toString(), p.account]));
  for (const t of r.trades) console.log(JSON.stringify(viewTrade(t)), t.account, t.tradingDay, t.rows);
}
