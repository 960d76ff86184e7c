import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgPolicy,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * The whole data model of Edgebook.
 *
 * Ownership: every owned table carries `user_id` and a row-level security policy that compares it with the
 * per-transaction setting `app.user_id`. The app runs its queries as the role `edgebook_app`, which does not own
 * the tables (see migrations/0001_app_role.sql), so a query that forgets its `where user_id = ...` still sees
 * only the signed-in trader's rows.
 *
 * Money and prices are `numeric`: pnl and commissions to the cent, prices and quantities with 8 decimals.
 */

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });
const money = (name: string) => numeric(name, { precision: 16, scale: 2 });
const decimal = (name: string) => numeric(name, { precision: 24, scale: 8 });
/** PostgreSQL's text-search document type (drizzle has no built-in for it). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
const ownerId = () =>
  text('user_id')
    .notNull()
    .references(() => user.id, { onDelete: 'cascade' });

/**
 * The owner's id of a row that belongs to another owned row and references it by (id, user_id): that reference already
 * holds it to an existing user (and deletes it with the user), so a second check per row would only slow bulk writes.
 */
const ownerIdThrough = () => text('user_id').notNull();

/** RLS: a row is visible and writable only when its user_id is the transaction's app.user_id. */
const ownerPolicy = (table: string) =>
  pgPolicy(`${table}_owner`, {
    as: 'permissive',
    for: 'all',
    to: 'public',
    using: sql`user_id = current_setting('app.user_id', true)`,
    withCheck: sql`user_id = current_setting('app.user_id', true)`,
  });

// ---------------------------------------------------------------------------------------------------------------
// better-auth's tables (its Drizzle adapter looks them up by these keys). Only the auth system reads them, through
// the owner connection; the app role has no grant on them. With `generateId: 'uuid'` better-auth leaves ids to the
// database default.

const authId = () =>
  text('id')
    .primaryKey()
    .default(sql`gen_random_uuid()::text`);

export const user = pgTable('user', {
  id: authId(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  // better-auth's two-factor plugin.
  twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const session = pgTable(
  'session',
  {
    id: authId(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
  },
  (t) => [index('session_user_id_idx').on(t.userId)],
);

export const account = pgTable(
  'account',
  {
    id: authId(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_user_id_idx').on(t.userId)],
);

export const verification = pgTable(
  'verification',
  {
    id: authId(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('verification_identifier_idx').on(t.identifier)],
);

/** The two-factor plugin's TOTP secret and backup codes, both encrypted with the auth secret. */
export const twoFactor = pgTable(
  'two_factor',
  {
    id: authId(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    verified: boolean('verified').notNull().default(true),
    failedVerificationCount: integer('failed_verification_count').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [index('two_factor_user_id_idx').on(t.userId)],
);

/** better-auth's rate limiter, kept in the database so several app processes share one count per client. */
export const rateLimit = pgTable('rate_limit', {
  id: authId(),
  key: text('key').notNull().unique(),
  count: integer('count').notNull(),
  lastRequest: bigint('last_request', { mode: 'number' }).notNull(),
});

/**
 * Failed sign-ins per account (src/server/auth/sign-in-limits.ts), shared by every app process. The key is a hash
 * of the account's identity (e.g. its lowercased email), so the table never holds an address.
 */
export const signInThrottle = pgTable('sign_in_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  blockedUntil: timestamp('blocked_until', { withTimezone: true }),
  /** A random id of the last attempt that counted: an attempt sees its own id back when it was let through. */
  lastAttempt: text('last_attempt').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Token buckets of the rate limits on public pages and invitations (src/server/http/rate-limit.ts), shared by every app
 * process on the database. The key is a hash of the limit's name and whom it counts (an address, a user), so the
 * table holds no address and nothing of a trader's; only the owner connection reads and writes it.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    tokens: doublePrecision('tokens').notNull(),
    /** When the tokens were counted, in epoch milliseconds of the app's clock. */
    atMs: bigint('at_ms', { mode: 'number' }).notNull(),
    /** When the bucket is full again: a row past it holds nothing a fresh one would not, and is pruned. */
    fullAtMs: bigint('full_at_ms', { mode: 'number' }).notNull(),
    /** Whether the last request was let through. */
    allowed: boolean('allowed').notNull(),
  },
  (t) => [index('rate_limits_full_at_idx').on(t.fullAtMs)],
);

// ---------------------------------------------------------------------------------------------------------------
// Owned tables.

export const tradingAccounts = pgTable(
  'trading_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    name: text('name').notNull(),
    description: text('description'),
    isDefault: boolean('is_default').notNull().default(false),
    // The zone an import into this account last read naive times in, the next import's default.
    importTimeZone: text('import_time_zone'),
    // Personal, evaluation or funded; the plan's size; the balance its equity and percentages start from
    // (10000 by default); the prop firm.
    kind: text('kind').notNull().default('personal'),
    size: money('size'),
    startingBalance: money('starting_balance').notNull().default('10000'),
    firm: text('firm'),
    // The currency the account's money is counted in: USD for futures, USDT or USDC for an exchange's account. Figures
    // of accounts in different currencies are never added into one (src/domain/reports/currency.ts).
    currency: text('currency').notNull().default('USD'),
    // Bumped by triggers with every write of the account's trades (migration prop_accounts): the prop status's copy of
    // an account's trades is current while this is unchanged.
    tradesVersion: bigint('trades_version', { mode: 'number' }).notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('trading_accounts_kind', sql`${t.kind} in ('personal', 'evaluation', 'funded')`),
    check('trading_accounts_size_positive', sql`${t.size} is null or ${t.size} > 0`),
    check('trading_accounts_firm_length', sql`${t.firm} is null or length(${t.firm}) between 1 and 100`),
    check('trading_accounts_currency', sql`${t.currency} in ('USD', 'USDT', 'USDC')`),
    // Only one default account per user, enforced by the database.
    uniqueIndex('trading_accounts_one_default')
      .on(t.userId)
      .where(sql`${t.isDefault}`),
    // Lets trades reference (account_id, user_id), so a trade can never point at another trader's account.
    unique('trading_accounts_id_user').on(t.id, t.userId),
    index('trading_accounts_user_name_idx').on(t.userId, t.name),
    ownerPolicy('trading_accounts'),
  ],
);

/**
 * Playbooks: the trader's named setups, with a description, entry criteria and an ordered
 * checklist of rules (playbook_rules). A trade takes one (trades.playbook_id) and ticks its rules (trade_rule_checks).
 */
export const playbooks = pgTable(
  'playbooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    entryCriteria: text('entry_criteria').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    unique('playbooks_id_user').on(t.id, t.userId),
    uniqueIndex('playbooks_user_name_idx').on(t.userId, sql`lower(${t.name})`),
    ownerPolicy('playbooks'),
  ],
);

export const playbookRules = pgTable(
  'playbook_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    playbookId: uuid('playbook_id').notNull(),
    position: integer('position').notNull(),
    text: text('text').notNull(),
  },
  (t) => [
    unique('playbook_rules_id_user').on(t.id, t.userId),
    foreignKey({
      name: 'playbook_rules_playbook_owner_fk',
      columns: [t.playbookId, t.userId],
      foreignColumns: [playbooks.id, playbooks.userId],
    }).onDelete('cascade'),
    index('playbook_rules_playbook_idx').on(t.userId, t.playbookId, t.position),
    ownerPolicy('playbook_rules'),
  ],
);

export const trades = pgTable(
  'trades',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    accountId: uuid('account_id'),
    // The trading day at 12:00 UTC.
    tradeDate: ts('trade_date').notNull(),
    dayOfWeek: text('day_of_week').notNull(),
    symbol: text('symbol').notNull().default('Unknown'),
    period: text('period').notNull().default('AM'),
    tradeType: text('trade_type').notNull().default(''),
    status: text('status').notNull().default('BE'),
    // Net of commission; commission is stored as an absolute value.
    pnl: money('pnl').notNull().default('0'),
    commission: money('commission').notNull().default('0'),
    link: text('link').notNull().default(''),
    notes: text('notes').notNull().default(''),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    // Imported trades also keep the executions they came from; manual trades may carry them too.
    // The side is Long or Short, apart from the setup in trade_type (migration risk_playbooks moved stored sides here).
    side: text('side'),
    contract: text('contract'),
    entryTime: ts('entry_time'),
    exitTime: ts('exit_time'),
    entryPrice: decimal('entry_price'),
    exitPrice: decimal('exit_price'),
    quantity: decimal('quantity'),
    grossPnl: money('gross_pnl'),
    importSource: text('import_source'),
    importKey: text('import_key'),
    // 'schedule' when the commission came from the account's fee schedule (the file had none): re-applicable.
    commissionSource: text('commission_source'),
    // The trade's plan (src/domain/risk): a stop price or a dollar risk, never both, and an optional target.
    // Without either, the trader's risk_defaults for the account and instrument apply.
    stopPrice: decimal('stop_price'),
    riskAmount: money('risk_amount'),
    targetPrice: decimal('target_price'),
    // The trade's playbook; deleting the playbook leaves the trade without one.
    playbookId: uuid('playbook_id'),
    // Funding payments counted in this trade (an exchange's perpetual, paid or received while it was open): pnl is
    // gross_pnl - commission + funding. Null when none was attributed to it (funding_payments).
    funding: money('funding'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    // The trading order's time keys (src/domain/trades/trading-order.ts), kept by the database: the
    // entry, else the exit, else the creation (a manual trade has no times), and the exit, else the entry, else the
    // creation. The order of trades everywhere is (trade_date, ordering_entry_time, ordering_exit_time, created_at, id).
    orderingEntryTime: ts('ordering_entry_time')
      .notNull()
      .generatedAlwaysAs(sql`coalesce(entry_time, exit_time, created_at)`),
    orderingExitTime: ts('ordering_exit_time')
      .notNull()
      .generatedAlwaysAs(sql`coalesce(exit_time, entry_time, created_at)`),
  },
  (t) => [
    foreignKey({
      name: 'trades_account_owner_fk',
      columns: [t.accountId, t.userId],
      foreignColumns: [tradingAccounts.id, tradingAccounts.userId],
    }),
    // The list order is the trading order newest first; with every key in the index a page is an index range scan,
    // not a sort of every trade (measured at 100,000 trades: 720 ms -> 1 ms on PGlite), and read backwards it serves
    // the oldest-first order too. NULLS FIRST is what a plain ORDER BY ... DESC means, so the planner can use it.
    index('trades_user_order_idx').on(
      t.userId,
      t.tradeDate.desc().nullsFirst(),
      t.orderingEntryTime.desc().nullsFirst(),
      t.orderingExitTime.desc().nullsFirst(),
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('trades_user_account_order_idx').on(
      t.userId,
      t.accountId,
      t.tradeDate.desc().nullsFirst(),
      t.orderingEntryTime.desc().nullsFirst(),
      t.orderingExitTime.desc().nullsFirst(),
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // Re-importing a file or an overlapping export creates no duplicate.
    uniqueIndex('trades_import_key_idx').on(t.userId, t.accountId, t.importKey),
    // Lets rows that point at a trade (reflections, notes) reference (trade_id, user_id): never another trader's.
    unique('trades_id_user').on(t.id, t.userId),
    // ON DELETE SET NULL ("playbook_id") in the playbooks migration: Drizzle cannot say the column list.
    foreignKey({
      name: 'trades_playbook_owner_fk',
      columns: [t.playbookId, t.userId],
      foreignColumns: [playbooks.id, playbooks.userId],
    }).onDelete('set null'),
    index('trades_user_playbook_idx')
      .on(t.userId, t.playbookId)
      .where(sql`${t.playbookId} is not null`),
    // The R panel's search asks only the trades with notes whether their notes match (reports/search.ts).
    index('trades_user_notes_idx')
      .on(t.userId)
      .where(sql`${t.notes} <> ''`),
    check('trades_side', sql`${t.side} in ('Long', 'Short')`),
    check('trades_one_risk', sql`${t.stopPrice} is null or ${t.riskAmount} is null`),
    check('trades_risk_amount_positive', sql`${t.riskAmount} > 0`),
    ownerPolicy('trades'),
  ],
);

/** The rules of its playbook a trade followed: one row per ticked rule, gone with the trade or the rule. */
export const tradeRuleChecks = pgTable(
  'trade_rule_checks',
  {
    userId: ownerId(),
    tradeId: uuid('trade_id').notNull(),
    ruleId: uuid('rule_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.tradeId, t.ruleId] }),
    foreignKey({ name: 'trade_rule_checks_trade_owner_fk', columns: [t.tradeId, t.userId], foreignColumns: [trades.id, trades.userId] }).onDelete(
      'cascade',
    ),
    foreignKey({
      name: 'trade_rule_checks_rule_owner_fk',
      columns: [t.ruleId, t.userId],
      foreignColumns: [playbookRules.id, playbookRules.userId],
    }).onDelete('cascade'),
    index('trade_rule_checks_rule_idx').on(t.userId, t.ruleId),
    ownerPolicy('trade_rule_checks'),
  ],
);

/**
 * Statistics at any size: one row per trader, scope and trading day, rewritten by database triggers in
 * the same statement as every insert, update, delete or reassignment of trades (migration
 * trade_day_rollups_triggers), so no write path can forget it. `scope` is 'all' (every account), 'none' (unassigned)
 * or an account id. The streak fields summarise
 * the day's results in the trading order (migration trading_order) so that days combine (domain
 * `combineResultRuns`): the leading and trailing runs
 * of Wins or Losses ('W'/'L', null when the day starts or ends with a break-even) and the longest runs inside.
 */
export const tradeDayRollups = pgTable(
  'trade_day_rollups',
  {
    userId: ownerId(),
    scope: text('scope').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    trades: integer('trades').notNull(),
    wins: integer('wins').notNull(),
    losses: integer('losses').notNull(),
    breakEvens: integer('break_evens').notNull(),
    pnl: numeric('pnl', { precision: 20, scale: 2 }).notNull(),
    grossProfit: numeric('gross_profit', { precision: 20, scale: 2 }).notNull(),
    grossLoss: numeric('gross_loss', { precision: 20, scale: 2 }).notNull(),
    headResult: text('head_result'),
    headRun: integer('head_run').notNull(),
    tailResult: text('tail_result'),
    tailRun: integer('tail_run').notNull(),
    maxWinRun: integer('max_win_run').notNull(),
    maxLossRun: integer('max_loss_run').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.scope, t.day] }), ownerPolicy('trade_day_rollups')],
);

/**
 * A trader's trades' version, bumped by statement-level triggers on trades in the same transaction as
 * every write a report can see (migration trade_versions): the reports keep a trader's trades in memory and read this
 * one row to know the copy is current, in every server process.
 */
export const tradeVersions = pgTable(
  'trade_versions',
  {
    userId: ownerId().primaryKey(),
    version: bigint('version', { mode: 'number' }).notNull(),
    /** The trade_changes log holds every change after this version (migration trade_changes); older copies read all. */
    loggedAfter: bigint('logged_after', { mode: 'number' }).notNull().default(0),
    loggedRows: integer('logged_rows').notNull().default(0),
  },
  () => [ownerPolicy('trade_versions')],
);

/**
 * Which trades each version of a trader's trades changed (inserted, updated in a column the reports read, deleted),
 * written by the same triggers in the same transaction (migration trade_changes): the reports' copy reads only those.
 * Bounded per trader (tradeVersions.loggedRows); a cascade of the version row takes it along.
 */
export const tradeChanges = pgTable(
  'trade_changes',
  {
    userId: text('user_id')
      .notNull()
      .references(() => tradeVersions.userId, { onDelete: 'cascade' }),
    version: bigint('version', { mode: 'number' }).notNull(),
    tradeId: uuid('trade_id').notNull(),
  },
  (t) => [primaryKey({ name: 'trade_changes_pkey', columns: [t.userId, t.version, t.tradeId] }), ownerPolicy('trade_changes')],
);

export const tasks = pgTable(
  'tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    title: text('title').notNull(),
    category: text('category').notNull().default('Daily'),
    completed: boolean('completed').notNull().default(false),
    recurring: boolean('recurring').notNull().default(false),
    taskDate: date('task_date', { mode: 'string' }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('tasks_user_date_idx').on(t.userId, t.taskDate, t.createdAt), ownerPolicy('tasks')],
);

export const taskCompletion = pgTable(
  'task_completion',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    taskName: text('task_name').notNull(),
    completionDate: date('completion_date', { mode: 'string' }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [unique('task_completion_once').on(t.userId, t.taskName, t.completionDate), ownerPolicy('task_completion')],
);

export const profiles = pgTable(
  'profiles',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    displayName: text('display_name'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    profilePictureUrl: text('profile_picture_url'),
    googleProfilePictureUrl: text('google_profile_picture_url'),
    userCustomized: boolean('user_customized').notNull().default(false),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  () => [ownerPolicy('profiles')],
);

export const userPreferences = pgTable(
  'user_preferences',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId().unique(),
    theme: text('theme').notNull().default('dark'),
    widgets: jsonb('widgets'),
    layout: jsonb('layout'),
    statsWidgetsOrder: jsonb('stats_widgets_order'),
    // Days, sessions and the calendar are computed in this zone.
    timeZone: text('time_zone').notNull().default('America/New_York'),
    quickNote: text('quick_note').notNull().default('Note:'),
    // Set once, by whichever sign-in wins the race, when the new-user sample data is created.
    onboardedAt: ts('onboarded_at'),
    // Imported trades are filed under the exchange's trading day or the calendar day.
    tradingDay: text('trading_day').notNull().default('exchange'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [check('user_preferences_trading_day', sql`${t.tradingDay} in ('exchange', 'calendar')`), ownerPolicy('user_preferences')],
);

export const userTradePreferences = pgTable(
  'user_trade_preferences',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    preferenceType: text('preference_type').notNull(),
    preferenceValue: text('preference_value').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [unique('user_trade_preferences_once').on(t.userId, t.preferenceType, t.preferenceValue), ownerPolicy('user_trade_preferences')],
);

export const quickLinks = pgTable(
  'quick_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    title: text('title').notNull(),
    url: text('url').notNull(),
    icon: text('icon'),
    position: integer('position').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('quick_links_user_position_idx').on(t.userId, t.position, t.createdAt),
    // A quick link opens in a new tab, so only web addresses (never javascript: or data:).
    check('quick_links_http_url', sql`${t.url} ~* '^https?://'`),
    ownerPolicy('quick_links'),
  ],
);

export const chatSessions = pgTable(
  'chat_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    title: text('title').notNull().default('New Conversation'),
    lastMessage: text('last_message'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('chat_sessions_user_updated_idx').on(t.userId, t.updatedAt.desc()),
    unique('chat_sessions_id_user').on(t.id, t.userId),
    ownerPolicy('chat_sessions'),
  ],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    sessionId: uuid('session_id').notNull(),
    text: text('text').notNull(),
    isUser: boolean('is_user').notNull(),
    // An answer is stored when it completes; a stopped or failed one as far as it got, marked so.
    status: text('status').notNull().default('complete'),
    // 'chat' or 'deepthink'; DeepThink answers keep the model's reasoning.
    mode: text('mode').notNull().default('chat'),
    reasoning: text('reasoning'),
    // What the answer was computed from (tool results: figures, their trade counts and ranges, charts) and errors.
    meta: jsonb('meta'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'chat_messages_session_owner_fk',
      columns: [t.sessionId, t.userId],
      foreignColumns: [chatSessions.id, chatSessions.userId],
    }).onDelete('cascade'),
    index('chat_messages_session_created_idx').on(t.userId, t.sessionId, t.createdAt),
    ownerPolicy('chat_messages'),
  ],
);

export const noteFolders = pgTable(
  'note_folders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [unique('note_folders_user_name').on(t.userId, t.name), unique('note_folders_id_user').on(t.id, t.userId), ownerPolicy('note_folders')],
);

export const tags = pgTable(
  'tags',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [unique('tags_user_name').on(t.userId, t.name), unique('tags_id_user').on(t.id, t.userId), ownerPolicy('tags')],
);

/**
 * Notes. A note's folder and trade are referenced together with its owner, so the
 * database itself refuses a note in another trader's folder or linked to another trader's trade. Deleting the folder
 * or the trade leaves the note, unlinked: `ON DELETE SET NULL (folder_id)` and `(trade_id)` clear only that column
 * (a plain SET NULL would also clear user_id). Drizzle cannot say the column list, so the notes-layer migration adds
 * it by
 * hand; the snapshot records a plain SET NULL.
 */
export const notes = pgTable(
  'notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    folderId: uuid('folder_id'),
    tradeId: uuid('trade_id'),
    title: text('title').notNull().default(''),
    content: text('content').notNull().default(''),
    // The daily journal's note for this trading day (one note per date).
    journalDate: date('journal_date', { mode: 'string' }),
    // Full-text search over title (weight A) and body (weight B), kept by the database.
    search: tsvector('search').generatedAlwaysAs(
      sql`setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(content, '')), 'B')`,
    ),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'notes_folder_owner_fk',
      columns: [t.folderId, t.userId],
      foreignColumns: [noteFolders.id, noteFolders.userId],
    }).onDelete('set null'),
    foreignKey({
      name: 'notes_trade_owner_fk',
      columns: [t.tradeId, t.userId],
      foreignColumns: [trades.id, trades.userId],
    }).onDelete('set null'),
    // The list order is (updated_at, id) desc, so a page is an index range, in all notes or in one folder.
    index('notes_user_updated_id_idx').on(t.userId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('notes_user_folder_updated_id_idx').on(t.userId, t.folderId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('notes_user_trade_idx').on(t.userId, t.tradeId),
    uniqueIndex('notes_user_journal_date_idx')
      .on(t.userId, t.journalDate)
      .where(sql`${t.journalDate} is not null`),
    index('notes_search_idx').using('gin', t.search),
    unique('notes_id_user').on(t.id, t.userId),
    ownerPolicy('notes'),
  ],
);

export const noteTags = pgTable(
  'note_tags',
  {
    noteId: uuid('note_id').notNull(),
    tagId: uuid('tag_id').notNull(),
    userId: ownerId(),
  },
  (t) => [
    primaryKey({ columns: [t.noteId, t.tagId] }),
    foreignKey({
      name: 'note_tags_note_owner_fk',
      columns: [t.noteId, t.userId],
      foreignColumns: [notes.id, notes.userId],
    }).onDelete('cascade'),
    foreignKey({
      name: 'note_tags_tag_owner_fk',
      columns: [t.tagId, t.userId],
      foreignColumns: [tags.id, tags.userId],
    }).onDelete('cascade'),
    // The notes list's tag filter.
    index('note_tags_user_tag_idx').on(t.userId, t.tagId, t.noteId),
    ownerPolicy('note_tags'),
  ],
);

/**
 * An image on a note, a trade or a playbook (exactly one of them), by URL or uploaded (the url is then our own
 * /api/attachments/files/... path). Each reference carries the owner, like the note's.
 */
export const attachments = pgTable(
  'attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    noteId: uuid('note_id'),
    tradeId: uuid('trade_id'),
    playbookId: uuid('playbook_id'),
    url: text('url').notNull(),
    caption: text('caption'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'attachments_note_owner_fk',
      columns: [t.noteId, t.userId],
      foreignColumns: [notes.id, notes.userId],
    }).onDelete('cascade'),
    foreignKey({
      name: 'attachments_trade_owner_fk',
      columns: [t.tradeId, t.userId],
      foreignColumns: [trades.id, trades.userId],
    }).onDelete('cascade'),
    foreignKey({
      name: 'attachments_playbook_owner_fk',
      columns: [t.playbookId, t.userId],
      foreignColumns: [playbooks.id, playbooks.userId],
    }).onDelete('cascade'),
    check('attachments_one_owner_row', sql`num_nonnulls(${t.noteId}, ${t.tradeId}, ${t.playbookId}) = 1`),
    index('attachments_user_note_idx').on(t.userId, t.noteId),
    index('attachments_user_trade_idx').on(t.userId, t.tradeId),
    index('attachments_user_playbook_idx').on(t.userId, t.playbookId),
    ownerPolicy('attachments'),
  ],
);

/**
 * Per-trader AI request counts: a rolling one-minute window and a UTC day, so a trader cannot run up the
 * owner's provider bill, and several app processes on one PostgreSQL share the count.
 */
export const aiUsage = pgTable(
  'ai_usage',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    windowStart: ts('window_start').notNull(),
    windowCount: integer('window_count').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    dayCount: integer('day_count').notNull(),
  },
  () => [ownerPolicy('ai_usage')],
);

/**
 * What a trader decided about a trade on the Reflect page: whether it
 * followed their rules (null = not rated), the reflection's tags once the trader has edited them, and a description
 * that overrides the trade's notes. One row per trade, removed with the trade.
 */
export const tradeReflections = pgTable(
  'trade_reflections',
  {
    tradeId: uuid('trade_id').notNull(),
    userId: ownerId(),
    followedRules: boolean('followed_rules'),
    tags: text('tags').array(),
    description: text('description'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.tradeId] }),
    foreignKey({
      name: 'trade_reflections_trade_owner_fk',
      columns: [t.tradeId, t.userId],
      foreignColumns: [trades.id, trades.userId],
    }).onDelete('cascade'),
    ownerPolicy('trade_reflections'),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Imports.

/** Commission and fee schedule of a trading account, dollars per contract per side (src/domain/importers/fees.ts). */
export const feeSchedules = pgTable(
  'fee_schedules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    accountId: uuid('account_id').notNull(),
    micro: numeric('micro', { precision: 10, scale: 4 }).notNull(),
    mini: numeric('mini', { precision: 10, scale: 4 }).notNull(),
    // Root -> rate, e.g. { "MNQ": "0.52" }.
    roots: jsonb('roots')
      .notNull()
      .default(sql`'{}'::jsonb`),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    unique('fee_schedules_account').on(t.userId, t.accountId),
    foreignKey({
      name: 'fee_schedules_account_owner_fk',
      columns: [t.accountId, t.userId],
      foreignColumns: [tradingAccounts.id, tradingAccounts.userId],
    }).onDelete('cascade'),
    ownerPolicy('fee_schedules'),
  ],
);

/** Which trading account an account named in an import file goes into, remembered for the next file. */
export const importAccountLinks = pgTable(
  'import_account_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    fileAccount: text('file_account').notNull(),
    accountId: uuid('account_id').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    unique('import_account_links_file_account').on(t.userId, t.fileAccount),
    foreignKey({
      name: 'import_account_links_account_owner_fk',
      columns: [t.accountId, t.userId],
      foreignColumns: [tradingAccounts.id, tradingAccounts.userId],
    }).onDelete('cascade'),
    ownerPolicy('import_account_links'),
  ],
);

/** A trader's column mapping for a CSV of a format we do not know, by the file's header row. */
export const importColumnMappings = pgTable(
  'import_column_mappings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    headerKey: text('header_key').notNull(),
    mapping: jsonb('mapping').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [unique('import_column_mappings_header').on(t.userId, t.headerKey), ownerPolicy('import_column_mappings')],
);

// ---------------------------------------------------------------------------------------------------------------
// Risk.

/**
 * A trader's default planned risk for trades without their own stop or dollar risk: for one account or every account
 * (null), one instrument root or any (null); a stop distance in points or dollars a trade (src/domain/risk).
 */
export const riskDefaults = pgTable(
  'risk_defaults',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    accountId: uuid('account_id'),
    root: text('root'),
    stopPoints: decimal('stop_points'),
    riskAmount: money('risk_amount'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    unique('risk_defaults_scope').on(t.userId, t.accountId, t.root).nullsNotDistinct(),
    check('risk_defaults_one_kind', sql`num_nonnulls(${t.stopPoints}, ${t.riskAmount}) = 1`),
    check('risk_defaults_positive', sql`coalesce(${t.stopPoints}, ${t.riskAmount}) > 0`),
    check('risk_defaults_root_upper', sql`${t.root} = upper(${t.root}) and ${t.root} <> ''`),
    foreignKey({
      name: 'risk_defaults_account_owner_fk',
      columns: [t.accountId, t.userId],
      foreignColumns: [tradingAccounts.id, tradingAccounts.userId],
    }).onDelete('cascade'),
    ownerPolicy('risk_defaults'),
  ],
);

// Broker connections.

/**
 * A trader's connection to a broker's API (TopstepX through the ProjectX Gateway): the user name, and the API key only
 * as AES-256-GCM ciphertext bound to this row (src/server/features/connections/secret-box.ts), never readable back
 * through the API. The sync under way (started, last heartbeat, progress) and the last one's outcome live here too, so
 * every server process answers the same about it.
 */
export const brokerConnections = pgTable(
  'broker_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    provider: text('provider').notNull(),
    /**
     * Which ProjectX firm's gateway (src/server/connectors/projectx-firms.ts); 'configured' is PROJECTX_API_URL. Each
     * firm has its own users and keys, so a login is unique per firm.
     */
    firm: text('firm').notNull().default('configured'),
    /** Where the bars its syncs fetch are kept ('projectx:<gateway host>'); '' until its first sync. */
    barSource: text('bar_source').notNull().default(''),
    userName: text('user_name').notNull(),
    secret: text('secret').notNull(),
    /** What the trader sees for a login that is itself secret (an exchange's API key): "API key ending in 7f3a". */
    displayName: text('display_name'),
    /** What the provider said of the key's permissions when it was last checked, for the trader (it can trade). */
    keyWarning: text('key_warning'),
    status: text('status').notNull().default('connected'),
    lastError: text('last_error'),
    lastSyncAt: ts('last_sync_at'),
    lastOutcome: jsonb('last_outcome'),
    syncStartedAt: ts('sync_started_at'),
    syncHeartbeatAt: ts('sync_heartbeat_at'),
    syncProgress: jsonb('sync_progress'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    unique('broker_connections_user_login').on(t.userId, t.provider, t.firm, t.userName),
    index('broker_connections_bar_source_idx').on(t.barSource, t.userId),
    unique('broker_connections_id_user').on(t.id, t.userId),
    check('broker_connections_status', sql`${t.status} in ('connected', 'error')`),
    ownerPolicy('broker_connections'),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Fills and market data.

/**
 * Every fill of a trade, in the order traded (`seq` from 0): time, side, quantity and price, and the fill's costs
 * where the file gave them (null otherwise). A fill that FIFO split between two trades is a row in each, with its
 * share. Referenced with its owner, like a note's trade, and removed with the trade.
 */
export const tradeFills = pgTable(
  'trade_fills',
  {
    userId: ownerIdThrough(),
    tradeId: uuid('trade_id').notNull(),
    seq: integer('seq').notNull(),
    time: ts('time').notNull(),
    side: text('side').notNull(),
    quantity: decimal('quantity').notNull(),
    price: decimal('price').notNull(),
    commission: money('commission'),
    brokerId: text('broker_id'),
  },
  (t) => [
    primaryKey({ name: 'trade_fills_pk', columns: [t.userId, t.tradeId, t.seq] }),
    foreignKey({
      name: 'trade_fills_trade_owner_fk',
      columns: [t.tradeId, t.userId],
      foreignColumns: [trades.id, trades.userId],
    }).onDelete('cascade'),
    check('trade_fills_side', sql`${t.side} in ('Buy', 'Sell')`),
    check('trade_fills_quantity', sql`${t.quantity} > 0`),
    check('trade_fills_commission', sql`${t.commission} >= 0`),
    ownerPolicy('trade_fills'),
  ],
);

/**
 * The broker's accounts of a connection, each synced into a trading account or not (account_id null). A deleted
 * trading account unmaps it (migration 0023: ON DELETE SET NULL names the column). `flat_points` is where the next sync
 * rebuilds round trips from, per contract (src/domain/connections/round-trips.ts).
 */
export const brokerAccounts = pgTable(
  'broker_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    connectionId: uuid('connection_id').notNull(),
    externalId: text('external_id').notNull(),
    name: text('name').notNull(),
    balance: money('balance'),
    canTrade: boolean('can_trade').notNull().default(false),
    active: boolean('active').notNull().default(true),
    simulated: boolean('simulated'),
    /** Still listed by the broker. */
    listed: boolean('listed').notNull().default(true),
    accountId: uuid('account_id'),
    /** The trading day its history is read from. */
    syncFrom: date('sync_from', { mode: 'string' }),
    fetchedUntil: ts('fetched_until'),
    flatPoints: jsonb('flat_points')
      .notNull()
      .default(sql`'{}'::jsonb`),
    lastSyncAt: ts('last_sync_at'),
    lastSyncAdded: integer('last_sync_added'),
    lastSyncStatus: text('last_sync_status'),
    lastError: text('last_error'),
    /** The positions the provider said were open at its last sync (null: not read yet). */
    openPositions: jsonb('open_positions'),
    positionsReadAt: ts('positions_read_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    unique('broker_accounts_external').on(t.userId, t.connectionId, t.externalId),
    unique('broker_accounts_id_user').on(t.id, t.userId),
    foreignKey({
      name: 'broker_accounts_connection_owner_fk',
      columns: [t.connectionId, t.userId],
      foreignColumns: [brokerConnections.id, brokerConnections.userId],
    }).onDelete('cascade'),
    foreignKey({
      name: 'broker_accounts_account_owner_fk',
      columns: [t.accountId, t.userId],
      foreignColumns: [tradingAccounts.id, tradingAccounts.userId],
    }).onDelete('set null'),
    check('broker_accounts_sync_status', sql`${t.lastSyncStatus} in ('ok', 'error')`),
    index('broker_accounts_user_account_idx').on(t.userId, t.accountId),
    ownerPolicy('broker_accounts'),
  ],
);

/**
 * A synced trade's planned stop as the broker's stop order gave it (the first stop order on the closing side placed
 * while the position was open): the trade page labels the trade's stop as from the stop order while it is that price.
 */
export const brokerStops = pgTable(
  'broker_stops',
  {
    userId: ownerId(),
    tradeId: uuid('trade_id').notNull(),
    orderId: text('order_id').notNull(),
    stopPrice: decimal('stop_price').notNull(),
    placedAt: ts('placed_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'broker_stops_pk', columns: [t.userId, t.tradeId] }),
    foreignKey({ name: 'broker_stops_trade_owner_fk', columns: [t.tradeId, t.userId], foreignColumns: [trades.id, trades.userId] }).onDelete(
      'cascade',
    ),
    ownerPolicy('broker_stops'),
  ],
);

/** Every fill the broker's API gave for an account, by the broker's own id: what round trips are rebuilt from. */
export const brokerFills = pgTable(
  'broker_fills',
  {
    userId: ownerId(),
    brokerAccountId: uuid('broker_account_id').notNull(),
    externalId: text('external_id').notNull(),
    contractId: text('contract_id').notNull(),
    time: ts('time').notNull(),
    side: text('side').notNull(),
    quantity: decimal('quantity').notNull(),
    price: decimal('price').notNull(),
    fees: decimal('fees').notNull().default('0'),
    /** The asset the fees were charged in, when the provider says (an exchange: USDT, USDC, BNB). */
    feeAsset: text('fee_asset'),
    pnl: decimal('pnl'),
    /** A perpetual's position the fill belongs to: LONG or SHORT of a hedge-mode account, BOTH in one-way mode. */
    positionSide: text('position_side'),
    /** An exchange's order of fills within a millisecond (its trade id or sequence, digits). */
    sequence: text('sequence'),
    /** The exchange said the fill closed (part of) a position (true), opened one (false), or did not say (null). */
    closing: boolean('closing'),
    orderId: text('order_id'),
    voided: boolean('voided').notNull().default(false),
    fetchedAt: ts('fetched_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'broker_fills_pk', columns: [t.userId, t.brokerAccountId, t.externalId] }),
    foreignKey({
      name: 'broker_fills_account_owner_fk',
      columns: [t.brokerAccountId, t.userId],
      foreignColumns: [brokerAccounts.id, brokerAccounts.userId],
    }).onDelete('cascade'),
    check('broker_fills_side', sql`${t.side} in ('Buy', 'Sell')`),
    check('broker_fills_quantity', sql`${t.quantity} > 0`),
    check('broker_fills_position_side', sql`${t.positionSide} in ('LONG', 'SHORT', 'BOTH')`),
    index('broker_fills_contract_time_idx').on(t.userId, t.brokerAccountId, t.contractId, t.time),
    ownerPolicy('broker_fills'),
  ],
);

/**
 * Funding payments an exchange reported for a synced account (positive: received, negative: paid), each an entry of its
 * own under the exchange's id, in the asset it was paid in. `trade_id` is the trade it counts in: the one of its
 * contract (and side, when the exchange names it) open when it was paid (src/domain/connections/funding.ts); none
 * while no such trade is in the journal.
 */
export const fundingPayments = pgTable(
  'funding_payments',
  {
    userId: ownerId(),
    brokerAccountId: uuid('broker_account_id').notNull(),
    externalId: text('external_id').notNull(),
    /** The journal's contract (BINANCE:BTCUSDT.P). */
    contract: text('contract').notNull(),
    time: ts('time').notNull(),
    amount: decimal('amount').notNull(),
    asset: text('asset').notNull(),
    positionSide: text('position_side'),
    tradeId: uuid('trade_id'),
    fetchedAt: ts('fetched_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'funding_payments_pk', columns: [t.userId, t.brokerAccountId, t.externalId] }),
    foreignKey({
      name: 'funding_payments_account_owner_fk',
      columns: [t.brokerAccountId, t.userId],
      foreignColumns: [brokerAccounts.id, brokerAccounts.userId],
    }).onDelete('cascade'),
    foreignKey({
      name: 'funding_payments_trade_owner_fk',
      columns: [t.tradeId, t.userId],
      foreignColumns: [trades.id, trades.userId],
    }).onDelete('set null'),
    check('funding_payments_position_side', sql`${t.positionSide} in ('LONG', 'SHORT')`),
    index('funding_payments_account_time_idx').on(t.userId, t.brokerAccountId, t.time),
    index('funding_payments_trade_idx').on(t.userId, t.tradeId),
    ownerPolicy('funding_payments'),
  ],
);

/**
 * A trader's own price bars (their uploads): one row per contract, resolution and bar start for each trader, under
 * row-level security like every owned table. Nobody else's upload reaches a trader's figures, and a trader can always
 * replace or delete their own bars.
 */
export const priceBars = pgTable(
  'price_bars',
  {
    userId: ownerId(),
    contract: text('contract').notNull(),
    resolution: integer('resolution').notNull(),
    start: ts('start').notNull(),
    open: decimal('open').notNull(),
    high: decimal('high').notNull(),
    low: decimal('low').notNull(),
    close: decimal('close').notNull(),
    volume: decimal('volume'),
    addedAt: ts('added_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'price_bars_pk', columns: [t.userId, t.contract, t.resolution, t.start] }),
    check('price_bars_resolution', sql`${t.resolution} in (1, 60)`),
    check('price_bars_range', sql`${t.high} >= ${t.low}`),
    ownerPolicy('price_bars'),
  ],
);

/**
 * Each upload of bars: its contract, resolution and span, and whether the trader confirmed that its source leaves out
 * minutes without trades (Databento's OHLCV does): inside such an upload's span a minute without a bar had no trades.
 */
export const barUploads = pgTable(
  'bar_uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    contract: text('contract').notNull(),
    resolution: integer('resolution').notNull(),
    firstStart: ts('first_start').notNull(),
    lastStart: ts('last_start').notNull(),
    bars: integer('bars').notNull(),
    format: text('format').notNull(),
    quietMinutes: boolean('quiet_minutes').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('bar_uploads_user_contract_idx').on(t.userId, t.contract, t.lastStart),
    check('bar_uploads_resolution', sql`${t.resolution} in (1, 60)`),
    ownerPolicy('bar_uploads'),
  ],
);

/**
 * Bars a provider's API gave (a ProjectX gateway), kept apart per source ('projectx:<gateway host>'). Read only by
 * traders with a connection to that source, added only by their syncs; no trader's upload reaches them.
 */
export const providerBars = pgTable(
  'provider_bars',
  {
    source: text('source').notNull(),
    contract: text('contract').notNull(),
    resolution: integer('resolution').notNull(),
    start: ts('start').notNull(),
    open: decimal('open').notNull(),
    high: decimal('high').notNull(),
    low: decimal('low').notNull(),
    close: decimal('close').notNull(),
    volume: decimal('volume'),
    addedAt: ts('added_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'provider_bars_pk', columns: [t.source, t.contract, t.resolution, t.start] }),
    check('provider_bars_resolution', sql`${t.resolution} in (1, 60)`),
    check('provider_bars_range', sql`${t.high} >= ${t.low}`),
    pgPolicy('provider_bars_connected', {
      as: 'permissive',
      for: 'select',
      to: 'public',
      using: sql`EXISTS (SELECT 1 FROM broker_connections c WHERE c.user_id = current_setting('app.user_id', true) AND c.bar_source = provider_bars.source)`,
    }),
    pgPolicy('provider_bars_add', {
      as: 'permissive',
      for: 'insert',
      to: 'public',
      withCheck: sql`EXISTS (SELECT 1 FROM broker_connections c WHERE c.user_id = current_setting('app.user_id', true) AND c.bar_source = provider_bars.source)`,
    }),
  ],
);

/**
 * High-impact USD events the economic calendar feed announced, kept after their week has passed so that the news
 * filter can find the trades taken near them. Public news, not a trader's data: no owner, read by every trader, written
 * only by the server on its own connection after a good read of the feed. An event read again is the same row.
 */
export const economicEvents = pgTable(
  'economic_events',
  {
    title: text('title').notNull(),
    country: text('country').notNull(),
    at: ts('at').notNull(),
    firstSeenAt: ts('first_seen_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'economic_events_pk', columns: [t.title, t.country, t.at] }),
    index('economic_events_at_idx').on(t.at),
    pgPolicy('economic_events_read', { as: 'permissive', for: 'select', to: 'public', using: sql`true` }),
  ],
);

/**
 * High-impact USD events a trader imported from a file of past calendar weeks, so that the news filter finds their
 * trades from before the server read the feed. The trader's own: the filter reads the feed's events and these, and no
 * other trader's. An event the feed announced already is not stored here again (nor one imported twice).
 */
export const importedEconomicEvents = pgTable(
  'imported_economic_events',
  {
    userId: ownerId(),
    at: ts('at').notNull(),
    title: text('title').notNull(),
    country: text('country').notNull(),
    importedAt: ts('imported_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'imported_economic_events_pk', columns: [t.userId, t.at, t.title, t.country] }),
    ownerPolicy('imported_economic_events'),
  ],
);

/**
 * A trade's MAE, MFE (points, ticks, dollars), best exit and capture, from the bars of its contract
 * (src/domain/market/excursions.ts), recomputed when the trade or those bars change, for the Trade Log's columns and
 * the Reports' averages. `detail` is the whole result: the exit analysis, or which bars are missing.
 */
export const tradeExcursions = pgTable(
  'trade_excursions',
  {
    userId: ownerId(),
    tradeId: uuid('trade_id').notNull(),
    status: text('status').notNull(),
    resolution: integer('resolution'),
    maePoints: decimal('mae_points'),
    mfePoints: decimal('mfe_points'),
    maeTicks: numeric('mae_ticks', { precision: 24, scale: 4 }),
    mfeTicks: numeric('mfe_ticks', { precision: 24, scale: 4 }),
    mae: money('mae'),
    mfe: money('mfe'),
    bestExitPrice: decimal('best_exit_price'),
    capture: numeric('capture', { precision: 12, scale: 4 }),
    detail: jsonb('detail').notNull(),
    computedAt: ts('computed_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'trade_excursions_pk', columns: [t.userId, t.tradeId] }),
    foreignKey({
      name: 'trade_excursions_trade_owner_fk',
      columns: [t.tradeId, t.userId],
      foreignColumns: [trades.id, trades.userId],
    }).onDelete('cascade'),
    check('trade_excursions_status', sql`${t.status} in ('complete', 'missing', 'no-bars', 'not-applicable')`),
    ownerPolicy('trade_excursions'),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Prop-firm accounts.

/**
 * The rule set of a trading account: one per account, the rules as JSON checked by the contract's zod schema
 * (src/contract/prop.ts) on every write and read, from a template (src/domain/prop/templates.ts) or from scratch.
 * `starts_on`: trades before this trading day are not counted (a reset starts the rules again).
 */
export const propRuleSets = pgTable(
  'prop_rule_sets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    accountId: uuid('account_id').notNull(),
    templateId: text('template_id'),
    rules: jsonb('rules').notNull(),
    startsOn: date('starts_on', { mode: 'string' }),
    // Shown on the dashboard's Prop Accounts widget (a failed or finished account can be set aside).
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    unique('prop_rule_sets_account').on(t.userId, t.accountId),
    foreignKey({
      name: 'prop_rule_sets_account_owner_fk',
      columns: [t.accountId, t.userId],
      foreignColumns: [tradingAccounts.id, tradingAccounts.userId],
    }).onDelete('cascade'),
    ownerPolicy('prop_rule_sets'),
  ],
);

/**
 * What prop accounts cost and paid. Deleting the account keeps its entries in the firm's ROI:
 * `ON DELETE SET NULL (account_id)` (added by hand in the migration; drizzle cannot say the column list), and the
 * entry keeps its firm, which follows the account's firm while the account exists.
 */
export const propLedgerEntries = pgTable(
  'prop_ledger_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    accountId: uuid('account_id'),
    firm: text('firm').notNull().default(''),
    kind: text('kind').notNull(),
    amount: money('amount').notNull(),
    occurredOn: date('occurred_on', { mode: 'string' }).notNull(),
    note: text('note').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('prop_ledger_entries_kind', sql`${t.kind} in ('evaluation-fee', 'reset-fee', 'activation-fee', 'data-fee', 'other-fee', 'payout')`),
    check('prop_ledger_entries_amount_positive', sql`${t.amount} > 0`),
    foreignKey({
      name: 'prop_ledger_entries_account_owner_fk',
      columns: [t.accountId, t.userId],
      foreignColumns: [tradingAccounts.id, tradingAccounts.userId],
    }).onDelete('set null'),
    index('prop_ledger_entries_user_account_idx').on(t.userId, t.accountId, t.occurredOn),
    ownerPolicy('prop_ledger_entries'),
  ],
);

/**
 * Read-only links a trader gives out (a trade, a day, a report view, a playbook, a prop account's status). The secret
 * is never stored: only its SHA-256 in hex, and the hash's first 16 digits that find the row before the whole hash is
 * compared in constant time. A revoked link keeps its row, so the trader still sees its views.
 */
export const shareLinks = pgTable(
  'share_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    tokenLookup: text('token_lookup').notNull(),
    tokenHash: text('token_hash').notNull(),
    kind: text('kind').notNull(),
    target: text('target').notNull(),
    hideAmounts: boolean('hide_amounts').notNull().default(false),
    hideAccounts: boolean('hide_accounts').notNull().default(false),
    includeNotes: boolean('include_notes').notNull().default(false),
    expiresAt: ts('expires_at'),
    revokedAt: ts('revoked_at'),
    views: integer('views').notNull().default(0),
    lastViewedAt: ts('last_viewed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    unique('share_links_token_hash_unique').on(t.tokenHash),
    check('share_links_kind', sql`${t.kind} in ('trade', 'day', 'report', 'playbook', 'prop')`),
    check('share_links_hash_shape', sql`${t.tokenHash} ~ '^[0-9a-f]{64}$' and ${t.tokenLookup} = left(${t.tokenHash}, 16)`),
    index('share_links_lookup_idx').on(t.tokenLookup),
    index('share_links_user_created_idx').on(t.userId, t.createdAt),
    ownerPolicy('share_links'),
  ],
);

/**
 * A trader's invitation of a mentor: the mentor, once signed in and accepted, reads the listed accounts' trades and
 * writes comments, nothing else. The invite's secret is stored only as its SHA-256 (and the hash's first 16 digits
 * that find the row). The row is the trader's; the mentor's reads check it on the owner connection, then read as the
 * trader.
 */
export const mentorGrants = pgTable(
  'mentor_grants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    email: text('email').notNull(),
    mentorUserId: text('mentor_user_id').references(() => user.id, { onDelete: 'cascade' }),
    tokenLookup: text('token_lookup').notNull(),
    tokenHash: text('token_hash').notNull(),
    accountIds: uuid('account_ids').array().notNull(),
    /** The mentor reads the daily journal too (its notes, and each day's trades of the granted accounts). */
    shareJournal: boolean('share_journal').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    acceptedAt: ts('accepted_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    unique('mentor_grants_token_hash_unique').on(t.tokenHash),
    check('mentor_grants_hash_shape', sql`${t.tokenHash} ~ '^[0-9a-f]{64}$' and ${t.tokenLookup} = left(${t.tokenHash}, 16)`),
    check('mentor_grants_accounts', sql`cardinality(${t.accountIds}) > 0`),
    check('mentor_grants_accepted', sql`(${t.mentorUserId} is null) = (${t.acceptedAt} is null)`),
    check('mentor_grants_not_self', sql`${t.mentorUserId} is null or ${t.mentorUserId} <> ${t.userId}`),
    index('mentor_grants_lookup_idx').on(t.tokenLookup),
    index('mentor_grants_user_created_idx').on(t.userId, t.createdAt),
    index('mentor_grants_mentor_idx').on(t.mentorUserId),
    ownerPolicy('mentor_grants'),
  ],
);

/**
 * Comments on a trader's trade or trading day, written by a mentor through a grant, and the trader's replies
 * (parent_id). The trader owns them; seen_at marks a mentor's comment the trader has seen.
 */
export const mentorComments = pgTable(
  'mentor_comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    grantId: uuid('grant_id')
      .notNull()
      .references(() => mentorGrants.id, { onDelete: 'cascade' }),
    authorId: text('author_id').references(() => user.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    parentId: uuid('parent_id').references((): AnyPgColumn => mentorComments.id, { onDelete: 'cascade' }),
    tradeId: uuid('trade_id'),
    tradeDate: date('trade_date', { mode: 'string' }),
    body: text('body').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    seenAt: ts('seen_at'),
  },
  (t) => [
    check('mentor_comments_target', sql`${t.tradeId} is not null or ${t.tradeDate} is not null`),
    check('mentor_comments_body', sql`length(${t.body}) between 1 and 4000`),
    index('mentor_comments_user_created_idx').on(t.userId, t.createdAt),
    index('mentor_comments_grant_idx').on(t.grantId),
    ownerPolicy('mentor_comments'),
  ],
);

/**
 * When each mentor read the trader's screens: one row per mentor and day (UTC) with the first and last read and their
 * count, so a mentor paging through a journal costs one upsert of the same row. The trader owns it; seen_at is when
 * the trader last looked at that day's views (the header's notifications count the rows read since).
 */
export const mentorViews = pgTable(
  'mentor_views',
  {
    userId: ownerId(),
    mentorId: text('mentor_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    firstSeenAt: ts('first_seen_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull(),
    viewCount: integer('view_count').notNull().default(1),
    seenAt: ts('seen_at'),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.mentorId, t.day] }),
    check('mentor_views_count', sql`${t.viewCount} > 0`),
    index('mentor_views_user_last_idx').on(t.userId, t.lastSeenAt),
    ownerPolicy('mentor_views'),
  ],
);

/**
 * A trader's named report views: the Reports filter as its URL text (the parameters `writeReportFilterParams`
 * writes), opened again from the sidebar or the command palette. Names are unique per trader whatever their case.
 */
export const savedViews = pgTable(
  'saved_views',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    name: text('name').notNull(),
    filter: text('filter').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('saved_views_name_length', sql`char_length(${t.name}) between 1 and 60`),
    check('saved_views_filter_length', sql`char_length(${t.filter}) <= 4000`),
    uniqueIndex('saved_views_user_name_idx').on(t.userId, sql`lower(${t.name})`),
    ownerPolicy('saved_views'),
  ],
);

/** Tables whose rows belong to one trader; each has a user_id and the owner policy above. */
export const ownedTables = [
  'trading_accounts',
  'trades',
  'trade_day_rollups',
  'trade_versions',
  'trade_changes',
  'tasks',
  'task_completion',
  'profiles',
  'user_preferences',
  'user_trade_preferences',
  'quick_links',
  'chat_sessions',
  'chat_messages',
  'note_folders',
  'tags',
  'notes',
  'note_tags',
  'attachments',
  'ai_usage',
  'trade_reflections',
  'fee_schedules',
  'import_account_links',
  'import_column_mappings',
  'risk_defaults',
  'broker_connections',
  'broker_accounts',
  'broker_fills',
  'trade_fills',
  'trade_excursions',
  'prop_rule_sets',
  'prop_ledger_entries',
  'playbooks',
  'playbook_rules',
  'trade_rule_checks',
  'broker_stops',
  'funding_payments',
  'price_bars',
  'bar_uploads',
  'share_links',
  'mentor_grants',
  'mentor_comments',
  'saved_views',
  'mentor_views',
  'imported_economic_events',
] as const;
