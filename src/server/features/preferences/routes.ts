import { Hono } from 'hono';
import { preferencesPatch, type Preferences, type PreferencesUpdate } from '../../../contract/preferences';
import type { TradingDayRule } from '../../../domain/market-time';
import { getPreferences, preferencesRepo, type PreferencesRow } from '../../core/preferences/repo';
import { refileImportedTrades } from '../../core/trades/refile';
import { writeTrades } from '../../core/trades/write';
import type { AppDeps, AppEnv } from '../../http/context';
import { readJson } from '../../http/validate';

function toDto(row: PreferencesRow): Preferences {
  return {
    theme: row.theme as Preferences['theme'],
    time_zone: row.timeZone,
    widgets: row.widgets,
    layout: row.layout,
    stats_widgets_order: row.statsWidgetsOrder,
    quick_note: row.quickNote,
    trading_day: row.tradingDay as TradingDayRule,
    onboarded: row.onboardedAt !== null,
  };
}

export function preferenceRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(toDto(await getPreferences(database, c.var.user.id))))
    .patch('/', async (c) => {
      const patch = await readJson(c, preferencesPatch);
      const userId = c.var.user.id;
      // A change of the trading day re-files imported trades: a write of trades, through their one door.
      const row = await writeTrades(database, userId, async (writer) => {
        const repo = preferencesRepo(writer.tx, userId);
        // Locked, so two changes of the trading day at once re-file from the rule each of them saw.
        const before = await repo.lock();
        const updated = await repo.update({
          ...(patch.theme !== undefined && { theme: patch.theme }),
          ...(patch.time_zone !== undefined && { timeZone: patch.time_zone }),
          ...(patch.widgets !== undefined && { widgets: patch.widgets }),
          ...(patch.layout !== undefined && { layout: patch.layout }),
          ...(patch.stats_widgets_order !== undefined && { statsWidgetsOrder: patch.stats_widgets_order }),
          ...(patch.quick_note !== undefined && { quickNote: patch.quick_note }),
          ...(patch.trading_day !== undefined && { tradingDay: patch.trading_day }),
        });
        const refiled =
          patch.trading_day !== undefined ? await refileImportedTrades(writer, before.tradingDay as TradingDayRule, patch.trading_day) : 0;
        return { ...toDto(updated), refiled_trades: refiled } satisfies PreferencesUpdate;
      });
      return c.json(row);
    });
}
