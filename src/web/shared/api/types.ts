/**
 * Shapes of the JSON API. Those with a contract (src/contract) are the server's own types, imported as
 * types only so zod stays out of the browser bundle. Money is an exact decimal string, e.g. "-12.50".
 */
export type { TradingAccount } from '../../../contract/accounts';

export type { Trade, TradePage, TradeStats, TradeAggregate, TradeInputBody } from '../../../contract/trades';
export type { TradePreferences } from '../../../contract/trade-preferences';
export type { Preferences } from '../../../contract/preferences';
export type { Profile } from '../../../contract/profile';
export type { Task, TaskDayStatus } from '../../../contract/tasks';
export type { QuickLink } from '../../../contract/quick-links';

export type { Attachment } from '../../../contract/attachments';
export type { TagRef, NoteSummary, NoteTrade, Note, NotePage, NoteFolder } from '../../../contract/notes';
export type { JournalDay, JournalDayDetail, JournalSave } from '../../../contract/journal';
export type { TradeDetails } from '../../../contract/trade-details';
export type { BarsCoverage, BarsDeleted, BarsOutcome, BarsPreview, Excursions, Fill, TradeChart, TradeFills } from '../../../contract/market';
