import type { CreatedShareLink, ShareExpiry, ShareKind, ShareLink, ShareLinkInput } from '../../../contract/share-links';
import { formatMoney } from '../../../domain/cents';
import { toCents } from '../../../domain/money';
import { formatInZone } from '../../../domain/dates';
import { currencyOfContract } from '../../../domain/instruments';
import type { PlaybookFigures } from '../../../domain/playbooks';
import { ACCOUNT_KIND_LABELS, RULE_LABELS, type AccountKind } from '../../../domain/prop';
import {
  computeOverview,
  computeROverview,
  createReportFilter,
  describeReportFilter,
  getTradeR,
  parseReportFilterParams,
  RESULT_NAMES,
  type TextColumn,
} from '../../../domain/reports';
import type { Database, Tx } from '../../db/client';
import { notFound } from '../../http/errors';
import { withReportScope } from '../../core/engine/scope';
import { playbookReportsOf } from '../../core/engine/playbook-reports';
import { playbooksRepo } from '../../core/playbooks/repo';
import { propRepo } from '../../core/prop/repo';
import { evaluatePropAccounts } from '../../core/prop/status';
import { notesRepo } from '../../core/notes/repo';
import {
  ATTACHMENT_FILE_NAME,
  ATTACHMENT_FILES_PATH,
  attachmentStorageKey,
  attachmentsRepo,
  type AttachmentTarget,
} from '../../core/attachments/repo';
import type { FileStorage } from '../../storage';
import { preferencesIn } from '../../core/preferences/repo';
import { loadRiskDefaults } from '../../core/risk/repo';
import { toTradeDto } from '../../core/trades/dto';
import { fillsRepo, toFillDto, toFillRecord } from '../../core/trades/fills';
import { tradesRepo } from '../../core/trades/repo';
import { findByLookup, shareLinksRepo, type ShareLinkRow } from './repo';
import { hashSecretToken, isTokenShaped, lookupOf, newSecretToken, sameHash } from '../../core/tokens/secret-token';

const DAY_MS = 24 * 60 * 60 * 1000;
const EXPIRY_MS: Readonly<Record<ShareExpiry, number | null>> = { day: DAY_MS, week: 7 * DAY_MS, never: null };
/** Linked notes a shared trade shows at most. */
const NOTES_MAX = 20;
/** Images a shared page shows at most (each one is a request of the visitor's, counted by the rate limit). */
const IMAGES_MAX = 12;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a shared page shows. Whatever the link hides is left out here, so no later step can print it. */
export interface SharedFill {
  time: string;
  side: string;
  quantity: string;
  price: string;
}
/**
 * An image of what the link shows: an uploaded one is served through the link itself by its attachment's id; one the
 * trader attached by another site's address is only linked to.
 */
export type SharedImage = { kind: 'uploaded'; id: string; caption: string | null } | { kind: 'linked'; url: string; caption: string | null };
export interface SharedTrade {
  kind: 'trade';
  symbol: string;
  contract: string | null;
  side: string | null;
  day: string;
  entryTime: string | null;
  exitTime: string | null;
  entryPrice: string | null;
  exitPrice: string | null;
  quantity: string | null;
  result: string;
  r: number | null;
  maeR: number | null;
  mfeR: number | null;
  /** The price's move from entry to exit in the trade's favour, as a percentage of the entry price. */
  movePercent: number | null;
  /** Null when amounts are hidden. */
  pnl: string | null;
  /** Null when account names are hidden (or the trade has no account). */
  account: string | null;
  fills: SharedFill[];
  /** Empty unless the link includes notes. */
  notes: string[];
  /** The trade's images; empty unless the link includes notes. */
  images: SharedImage[];
  zone: string;
}
export interface SharedDayTrade {
  time: string | null;
  symbol: string;
  side: string | null;
  result: string;
  r: number | null;
  pnl: string | null;
  account: string | null;
}
export interface SharedDay {
  kind: 'day';
  day: string;
  trades: number;
  wins: number;
  losses: number;
  winRate: number | null;
  totalR: number | null;
  expectancyR: number | null;
  profitFactor: number | null;
  net: string | null;
  rows: SharedDayTrade[];
  /** The daily journal's text of the day; null unless the link includes notes (or the day has none). */
  journal: string | null;
  /** The journal entry's images; empty unless the link includes notes. */
  images: SharedImage[];
  zone: string;
}
export interface SharedPropRule {
  label: string;
  state: string;
  /** Share of the way to the target or the limit. */
  progressPct: number | null;
  /** The rule's own words; null when amounts are hidden (they name dollars). */
  detail: string | null;
}
export interface SharedProp {
  kind: 'prop';
  /** Null when account names are hidden. */
  account: string | null;
  accountKind: string;
  firm: string | null;
  state: string;
  outcome: string;
  trades: number;
  /** Profit as a percentage of the starting balance. */
  profitPercent: number | null;
  /** Null when amounts are hidden. */
  headline: string | null;
  balance: string | null;
  profit: string | null;
  rules: SharedPropRule[];
  today: string;
}
export interface SharedPlaybookFigures {
  trades: number;
  winRate: number | null;
  expectancyR: number | null;
  /** Null when amounts are hidden. */
  net: string | null;
}
export interface SharedPlaybook {
  kind: 'playbook';
  name: string;
  description: string;
  entryCriteria: string;
  rules: string[];
  adherence: number | null;
  all: SharedPlaybookFigures;
  followed: SharedPlaybookFigures;
  broken: SharedPlaybookFigures;
}
export interface SharedReport {
  kind: 'report';
  /** The filter in words; accounts named only when account names are shown. */
  description: string;
  trades: number;
  tradingDays: number;
  winRate: number | null;
  profitFactor: number | null;
  winningDaysPercent: number | null;
  totalR: number | null;
  expectancyR: number | null;
  tradesWithoutRisk: number;
  /** Null when amounts are hidden. */
  net: string | null;
  averageTrade: string | null;
}
export type SharedView = SharedTrade | SharedDay | SharedReport | SharedProp | SharedPlaybook;

function toShareLinkDto(row: ShareLinkRow, title: string): ShareLink {
  return {
    id: row.id,
    kind: row.kind as ShareKind,
    target: row.target,
    title,
    hide_amounts: row.hideAmounts,
    hide_accounts: row.hideAccounts,
    include_notes: row.includeNotes,
    expires_at: row.expiresAt && new Date(row.expiresAt).toISOString(),
    revoked_at: row.revokedAt && new Date(row.revokedAt).toISOString(),
    views: row.views,
    last_viewed_at: row.lastViewedAt && new Date(row.lastViewedAt).toISOString(),
    created_at: new Date(row.createdAt).toISOString(),
  };
}

/** Titles of the trader's links: the trade's symbol and day (a deleted trade says so), or the day. */
async function titlesOf(tx: Tx, userId: string, rows: readonly ShareLinkRow[]): Promise<Map<string, string>> {
  const tradeIds = rows.filter((r) => r.kind === 'trade').map((r) => r.target);
  const found = new Map((await tradesRepo(tx, userId).findMany(tradeIds)).map((t) => [t.id, t]));
  const playbookNames = rows.some((r) => r.kind === 'playbook')
    ? new Map((await playbooksRepo(tx, userId).names()).map((p) => [p.id, p.name]))
    : new Map<string, string>();
  const accounts = rows.some((r) => r.kind === 'prop')
    ? new Map((await propRepo(tx, userId).accounts()).map((a) => [a.id, a.name]))
    : new Map<string, string>();
  return new Map(
    rows.map((row) => {
      if (row.kind === 'day') return [row.id, `Day ${row.target}`];
      if (row.kind === 'report') return [row.id, row.target ? `Reports: ${row.target}` : 'Reports: all trades'];
      if (row.kind === 'playbook') return [row.id, `Playbook: ${playbookNames.get(row.target) ?? 'deleted playbook'}`];
      if (row.kind === 'prop') return [row.id, `Prop status: ${accounts.get(row.target) ?? 'deleted account'}`];
      const trade = found.get(row.target);
      if (!trade) return [row.id, 'Deleted trade'];
      const side = trade.side ? ` ${trade.side}` : '';
      return [row.id, `${trade.symbol}${side}, ${new Date(trade.tradeDate).toISOString().slice(0, 10)}`];
    }),
  );
}

const signed = (cents: number, currency = 'USD') => `${cents > 0 ? '+' : ''}${formatMoney(cents, currency)}`;

function movePercent(side: string | null, entry: string | null, exit: string | null): number | null {
  const from = entry === null ? NaN : Number(entry);
  const to = exit === null ? NaN : Number(exit);
  if (!Number.isFinite(from) || !Number.isFinite(to) || from === 0) return null;
  const move = ((to - from) / from) * 100;
  return side === 'Short' ? -move : move;
}

/**
 * Whose images a link shows, when it includes notes: a trade's own, or the journal entry's of a day. Null for anything
 * else: no image is served through such a link.
 */
async function attachmentTargetOf(tx: Tx, link: ShareLinkRow): Promise<AttachmentTarget | null> {
  if (!link.includeNotes) return null;
  if (link.kind === 'trade') return { kind: 'trade', id: link.target };
  if (link.kind === 'day') {
    const note = await notesRepo(tx, link.userId).journalNote(link.target);
    return note ? { kind: 'note', id: note.id } : null;
  }
  return null;
}

/** The images a link shows, oldest first (as they were added). */
async function imagesOf(tx: Tx, link: ShareLinkRow): Promise<SharedImage[]> {
  const target = await attachmentTargetOf(tx, link);
  if (!target) return [];
  const rows = (await attachmentsRepo(tx, link.userId).list(target)).slice(0, IMAGES_MAX).reverse();
  return rows.map((row) =>
    row.url.startsWith(ATTACHMENT_FILES_PATH)
      ? { kind: 'uploaded', id: row.id, caption: row.caption }
      : { kind: 'linked', url: row.url, caption: row.caption },
  );
}

async function readTrade(tx: Tx, link: ShareLinkRow): Promise<SharedTrade | null> {
  const userId = link.userId;
  const row = await tradesRepo(tx, userId).find(link.target);
  if (!row) return null;
  const zone = (await preferencesIn(tx, userId)).timeZone;
  const trade = toTradeDto(row, await loadRiskDefaults(tx, userId));
  const fills = (await fillsRepo(tx, userId).list(row.id)).map((f) => toFillDto(toFillRecord(f)));
  let notes: string[] = [];
  if (link.includeNotes) {
    const linked = notesRepo(tx, userId);
    const pages = await linked.page({ tradeId: row.id }, NOTES_MAX);
    const bodies = await linked.contents(pages.map((n) => n.id));
    notes = [trade.notes, ...pages.map((n) => [n.title, bodies.get(n.id) ?? ''].filter(Boolean).join('\n\n'))].filter((text) => text.trim() !== '');
  }
  const time = (iso: string | null) => (iso === null ? null : formatInZone(iso, zone, 'MMM d, yyyy, h:mm:ss a'));
  const images = await imagesOf(tx, link);
  return {
    kind: 'trade',
    symbol: trade.symbol,
    contract: trade.contract,
    side: trade.side,
    day: trade.date,
    entryTime: time(trade.entry_time),
    exitTime: time(trade.exit_time),
    entryPrice: trade.entry_price,
    exitPrice: trade.exit_price,
    quantity: trade.quantity,
    result: trade.status,
    r: trade.r_multiple,
    maeR: trade.mae_r,
    mfeR: trade.mfe_r,
    movePercent: movePercent(trade.side, trade.entry_price, trade.exit_price),
    pnl: link.hideAmounts ? null : signed(toCents(trade.pnl), currencyOfContract(trade.contract)),
    account: link.hideAccounts ? null : trade.account_name,
    fills: fills.map((f) => ({ time: time(f.time) ?? '', side: f.side, quantity: f.quantity, price: f.price })),
    notes,
    images,
    zone,
  };
}

/**
 * The day's figures from the engine every report uses: the trader's trades of that trading day, in trading order; and,
 * when the link includes notes, the day's journal entry with its images.
 */
async function readDay(database: Database, link: ShareLinkRow, now: Date): Promise<SharedDay> {
  const filter = createReportFilter({ range: 'custom', from: link.target, to: link.target });
  const { journal, images } = link.includeNotes
    ? await database.withUser(link.userId, async (tx) => {
        const note = await notesRepo(tx, link.userId).journalNote(link.target);
        return { journal: note && note.content.trim() !== '' ? note.content : null, images: await imagesOf(tx, link) };
      })
    : { journal: null, images: [] };
  return withReportScope(database, link.userId, filter, now, (scope) => {
    const { set, columns: c } = scope;
    const risk = scope.risk();
    const overview = computeOverview(set);
    const inR = computeROverview(set, risk);
    const currency = scope.basis.currency;
    const text = (column: TextColumn, i: number) => column.values[column.codes[i]!] ?? null;
    const rows = [...set.rows].map((i): SharedDayTrade => {
      const accountId = text(c.account, i);
      const r = getTradeR(c, risk, i);
      return {
        time: Number.isFinite(c.entry[i]!) ? formatInZone(c.entry[i]!, scope.timeZone, 'h:mm:ss a') : null,
        symbol: text(c.symbol, i) ?? '',
        side: text(c.side, i),
        result: RESULT_NAMES[c.result[i]!] ?? 'BE',
        r: Number.isFinite(r) ? Math.round(r * 100) / 100 : null,
        pnl: link.hideAmounts ? null : signed(c.pnl[i]!, currency),
        account: link.hideAccounts || accountId === null ? null : (scope.accountName(accountId) ?? null),
      };
    });
    return {
      kind: 'day',
      day: link.target,
      trades: overview.trades,
      wins: overview.wins,
      losses: overview.losses,
      winRate: overview.winRate,
      totalR: inR.totalR,
      expectancyR: inR.expectancyR,
      profitFactor: overview.profitFactor,
      net: link.hideAmounts ? null : signed(overview.netCents, currency),
      rows,
      journal,
      images,
      zone: scope.timeZone,
    };
  });
}

/** A prop account's status as its page and the dashboard compute it; null when the account or its rules are gone. */
async function readProp(database: Database, link: ShareLinkRow, now: Date): Promise<SharedProp | null> {
  const { day, accounts } = await evaluatePropAccounts(database, link.userId, now, [link.target]);
  const evaluated = accounts.find((a) => a.row.id === link.target);
  if (!evaluated) return null;
  const { row, status } = evaluated;
  const starting = status.startingBalanceCents;
  return {
    kind: 'prop',
    account: link.hideAccounts ? null : row.name,
    accountKind: ACCOUNT_KIND_LABELS[row.kind as AccountKind] ?? row.kind,
    firm: row.firm,
    state: status.state,
    outcome: status.outcome,
    trades: evaluated.trades.length,
    profitPercent: starting > 0 ? (status.profitCents / starting) * 100 : null,
    headline: link.hideAmounts ? null : status.headline,
    balance: link.hideAmounts ? null : formatMoney(status.balanceCents, row.currency),
    profit: link.hideAmounts ? null : signed(status.profitCents, row.currency),
    rules: status.rules.map((rule) => ({
      label: RULE_LABELS[rule.rule],
      state: rule.state,
      progressPct: rule.progressPct,
      detail: link.hideAmounts ? null : rule.detail,
    })),
    today: day.today,
  };
}

/** A Reports view: the Overview's figures of the filter's trades, from the engine every report uses. */
function readReport(database: Database, link: ShareLinkRow, now: Date): Promise<SharedReport> {
  const filter = parseReportFilterParams(new URLSearchParams(link.target));
  return withReportScope(database, link.userId, filter, now, (scope) => {
    const overview = computeOverview(scope.set);
    const inR = computeROverview(scope.set, scope.risk());
    const currency = scope.basis.currency;
    const accountName = link.hideAccounts ? () => 'an account' : scope.accountName;
    return {
      kind: 'report',
      description: describeReportFilter(scope.filter, scope.range, accountName),
      trades: overview.trades,
      tradingDays: overview.tradingDays,
      winRate: overview.winRate,
      profitFactor: overview.profitFactor,
      winningDaysPercent: overview.winningDaysPercent,
      totalR: inR.totalR,
      expectancyR: inR.expectancyR,
      tradesWithoutRisk: inR.tradesWithoutRisk,
      net: link.hideAmounts ? null : signed(overview.netCents, currency),
      averageTrade: link.hideAmounts || overview.averageTradeCents === null ? null : signed(overview.averageTradeCents, currency),
    };
  });
}

/** A playbook, its rules and its report over all the owner's trades, as its page computes it; null when it is gone. */
async function readPlaybook(database: Database, link: ShareLinkRow, now: Date): Promise<SharedPlaybook | null> {
  const id = link.target;
  const read = await database.withUser(link.userId, async (tx) => {
    const repo = playbooksRepo(tx, link.userId);
    const [row] = await repo.find(id);
    return row ? { row, rules: await repo.rules([id]) } : null;
  });
  if (!read) return null;
  const report = await withReportScope(database, link.userId, createReportFilter({ playbook: [id] }), now, (scope) =>
    playbookReportsOf(scope, read.rules, id)(id),
  );
  const figures = (f: PlaybookFigures): SharedPlaybookFigures => ({
    trades: f.trades,
    winRate: f.winRate,
    expectancyR: f.expectancyR,
    net: link.hideAmounts ? null : signed(f.netCents),
  });
  return {
    kind: 'playbook',
    name: read.row.name,
    description: read.row.description,
    entryCriteria: read.row.entryCriteria,
    rules: read.rules.map((r) => r.text),
    adherence: report.adherence,
    all: figures(report),
    followed: figures(report.followed),
    broken: figures(report.broken),
  };
}

/** The link a token opens, when it is a live one: its owner's row, else null (unknown, revoked and expired alike). */
async function openLink(database: Database, token: string, now: Date, countView: boolean): Promise<ShareLinkRow | null> {
  if (!isTokenShaped(token)) return null;
  const hash = hashSecretToken(token);
  const match = (await findByLookup(database, lookupOf(hash))).find((row) => sameHash(row.tokenHash, hash));
  if (!match) return null;
  const row = await database.withUser(match.userId, (tx) => {
    const links = shareLinksRepo(tx, match.userId);
    return countView ? links.view(match.id, now) : links.live(match.id, now);
  });
  return row ?? null;
}

export const sharingService = {
  async create(
    database: Database,
    userId: string,
    input: ShareLinkInput & { expires: ShareExpiry },
    baseUrl: string,
    now: Date,
  ): Promise<CreatedShareLink> {
    const token = newSecretToken();
    const hash = hashSecretToken(token);
    const ms = EXPIRY_MS[input.expires];
    const { row, title } = await database.withUser(userId, async (tx) => {
      // Only what the trader has can be shared: another trader's trade id is as unknown as a made-up one.
      if (input.kind === 'trade' && !(await tradesRepo(tx, userId).find(input.target))) throw notFound('Trade not found');
      if (input.kind === 'playbook' && (await playbooksRepo(tx, userId).find(input.target)).length === 0) throw notFound('Playbook not found');
      if (input.kind === 'prop' && (await propRepo(tx, userId).accounts(input.target)).length === 0) throw notFound('Trading account not found');
      const inserted = await shareLinksRepo(tx, userId).insert({
        tokenLookup: lookupOf(hash),
        tokenHash: hash,
        kind: input.kind,
        target: input.target,
        hideAmounts: input.hide_amounts ?? false,
        hideAccounts: input.hide_accounts ?? false,
        includeNotes: input.include_notes ?? false,
        expiresAt: ms === null ? null : new Date(now.getTime() + ms).toISOString(),
      });
      return { row: inserted, title: (await titlesOf(tx, userId, [inserted])).get(inserted.id)! };
    });
    return { ...toShareLinkDto(row, title), url: `${baseUrl.replace(/\/$/, '')}/s/${token}` };
  },

  list: (database: Database, userId: string): Promise<ShareLink[]> =>
    database.withUser(userId, async (tx) => {
      const rows = await shareLinksRepo(tx, userId).list();
      const titles = await titlesOf(tx, userId, rows);
      return rows.map((row) => toShareLinkDto(row, titles.get(row.id)!));
    }),

  async revoke(database: Database, userId: string, id: string, now: Date): Promise<void> {
    if (!(await database.withUser(userId, (tx) => shareLinksRepo(tx, userId).revoke(id, now)))) throw notFound('Share link not found');
  },

  /**
   * What a live link shows, read as its owner alone; null for anything else. `countView` counts the visit (the page
   * does, its preview image does not).
   */
  async read(database: Database, token: string, now: Date, countView: boolean): Promise<{ link: ShareLinkRow; view: SharedView } | null> {
    const link = await openLink(database, token, now, countView);
    if (!link) return null;
    if (link.kind === 'trade') {
      const view = await database.withUser(link.userId, (tx) => readTrade(tx, link));
      return view && { link, view };
    }
    if (link.kind === 'day') return { link, view: await readDay(database, link, now) };
    if (link.kind === 'report') return { link, view: await readReport(database, link, now) };
    if (link.kind === 'playbook') {
      const view = await readPlaybook(database, link, now);
      return view && { link, view };
    }
    if (link.kind === 'prop') {
      const view = await readProp(database, link, now);
      return view && { link, view };
    }
    return null;
  },

  /**
   * An uploaded image through a live link that shows it (a trade's own images, a day's journal images, notes
   * included), read from its owner's folder; null for anything else, another trade's image included.
   */
  async image(database: Database, storage: FileStorage, token: string, id: string, now: Date): Promise<Uint8Array | null> {
    if (!UUID.test(id)) return null;
    const link = await openLink(database, token, now, false);
    if (!link) return null;
    const url = await database.withUser(link.userId, async (tx) => {
      const target = await attachmentTargetOf(tx, link);
      return target ? ((await attachmentsRepo(tx, link.userId).find(target, id))?.url ?? null) : null;
    });
    const file = url?.startsWith(ATTACHMENT_FILES_PATH) ? url.slice(ATTACHMENT_FILES_PATH.length) : null;
    if (!file || !ATTACHMENT_FILE_NAME.test(file)) return null;
    return storage.get(attachmentStorageKey(link.userId, file));
  },
};
