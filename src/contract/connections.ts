import { z } from 'zod';
import { findPropTemplate } from '../domain/prop/templates';
import { calendarDay, decimal, instant } from './common';

/**
 * Broker connections: a ProjectX firm's connection (TopstepX and others) by user name and API key, its accounts mapped
 * to trading accounts, and syncs. The API key goes in (connect, replace) and never comes back out: no answer carries it.
 */

/** The providers Edgebook connects to; one module each behind one interface (src/server/connectors). */
export const PROVIDERS = ['topstepx'] as const;
export type ProviderId = (typeof PROVIDERS)[number];

const userName = z.string({ error: 'is required' }).trim().min(1, 'is required').max(200, 'must be at most 200 characters');
const apiKey = z.string({ error: 'is required' }).trim().min(1, 'is required').max(1000, 'must be at most 1000 characters');

/** POST /api/connections (connect) and POST /api/connections/test (sign in and list the accounts, saving nothing). */
export const connectionInput = z.strictObject({
  provider: z.enum(PROVIDERS, { error: "must be 'topstepx'" }).default('topstepx'),
  /** The ProjectX firm whose gateway the key is for (GET /api/connections lists them); the server's configured one by default. */
  firm: z.string().trim().min(1, 'is required').max(40, 'must be at most 40 characters').optional(),
  user_name: userName,
  api_key: apiKey,
});

/** PATCH /api/connections/:id: a new API key (a revoked one replaced), and the user name with it if it changed. */
export const connectionUpdate = z.strictObject({ user_name: userName.optional(), api_key: apiKey });

/**
 * PATCH /api/connections/:id/broker-accounts/:brokerAccountId: which trading account a broker account syncs into (null: none), and
 * from which trading day its history is read. Changing either reads the history again from that day; trades already
 * in the journal are recognised and not stored twice.
 */
export const brokerAccountUpdate = z
  .strictObject({
    account_id: z.uuid('must be a trading account id').nullable().optional(),
    sync_from: calendarDay().optional(),
    /**
     * The offer made while mapping: the trading account becomes a prop account of the template's firm, kind and size
     * (its starting balance the plan's size) with the template's rules, in the same transaction as the mapping.
     */
    prop: z
      .strictObject({
        template_id: z
          .string({ error: 'is required' })
          .max(100, 'must be at most 100 characters')
          .refine((id) => findPropTemplate(id) !== undefined, 'no such template'),
      })
      .optional(),
  })
  .refine((value) => value.account_id !== undefined || value.sync_from !== undefined || value.prop !== undefined, 'give account_id, sync_from or prop');

/** An account at the provider, as a test of the connection lists it. */
export const providerAccount = z.strictObject({
  external_id: z.string(),
  name: z.string(),
  balance: decimal.nullable(),
  can_trade: z.boolean(),
  active: z.boolean(),
});

/** POST /api/connections/test */
export const connectionTest = z.strictObject({
  ok: z.literal(true),
  provider: z.enum(PROVIDERS),
  accounts: z.array(providerAccount),
});

/** A broker account of a connection: where it syncs to and how its last sync went. */
export const brokerAccount = z.strictObject({
  id: z.uuid(),
  external_id: z.string(),
  name: z.string(),
  balance: decimal.nullable(),
  can_trade: z.boolean(),
  active: z.boolean(),
  simulated: z.boolean().nullable(),
  /** False once the provider no longer lists it: its trades stay, nothing new comes. */
  listed: z.boolean(),
  account_id: z.uuid().nullable(),
  /** While unmapped: the trading account an import of the provider's CSV export used for it, or one of its name. */
  suggested_account_id: z.uuid().nullable(),
  /** The prop-firm template (src/domain/prop/templates.ts) its name or balance says it follows, offered when it is mapped. */
  suggested_template_id: z.string().nullable(),
  /** The trading day its history is read from (yyyy-MM-dd). */
  sync_from: z.iso.date().nullable(),
  /** Fills are read up to here. */
  fetched_until: instant.nullable(),
  last_sync_at: instant.nullable(),
  last_sync_added: z.number().int().nullable(),
  last_sync_status: z.enum(['ok', 'error']).nullable(),
  last_error: z.string().nullable(),
  /** The positions the provider said were open at the last sync; null until a sync has read them. */
  open_positions: z
    .array(
      z.strictObject({
        /** The journal's name of the contract (MNQM5). */
        contract: z.string(),
        side: z.enum(['Long', 'Short']),
        size: decimal,
        average_price: decimal,
        since: instant,
      }),
    )
    .nullable(),
  positions_read_at: instant.nullable(),
});

export const SYNC_PHASES = ['signing-in', 'accounts', 'fills', 'saving', 'bars'] as const;

/** What a sync under way is doing, for the progress bar. */
export const syncProgress = z.strictObject({
  phase: z.enum(SYNC_PHASES),
  accounts_done: z.number().int(),
  accounts_total: z.number().int(),
  /** The broker account being read. */
  account_name: z.string().nullable(),
  windows_done: z.number().int(),
  windows_total: z.number().int(),
  fills: z.number().int(),
});

/** How the last sync ended. */
export const syncOutcome = z.strictObject({
  status: z.enum(['ok', 'error']),
  /** In the trader's words: what failed, or null. */
  message: z.string().nullable(),
  trigger: z.enum(['manual', 'schedule']),
  started_at: instant,
  finished_at: instant,
  /** Trades stored; trades the journal already had (from an earlier sync or a CSV export); fills read. */
  added: z.number().int(),
  duplicates: z.number().int(),
  fills: z.number().int(),
  open_positions: z.number().int(),
  /** One-minute bars stored for replay. */
  bars: z.number().int(),
  /** Notes for the trader (exits of positions opened before the first day, an unknown contract). */
  warnings: z.array(z.string()),
});

export const brokerConnection = z.strictObject({
  id: z.uuid(),
  provider: z.enum(PROVIDERS),
  /** The firm whose gateway it speaks to ('configured': the server's PROJECTX_API_URL). */
  firm: z.string(),
  /** The firm's name ('TopstepX'). */
  provider_label: z.string(),
  user_name: z.string(),
  /** 'error' when the saved key no longer works (revoked, or unreadable after AUTH_SECRET changed). */
  status: z.enum(['connected', 'error']),
  last_error: z.string().nullable(),
  last_sync_at: instant.nullable(),
  created_at: instant,
  sync: z.strictObject({
    running: z.boolean(),
    started_at: instant.nullable(),
    progress: syncProgress.nullable(),
  }),
  last_outcome: syncOutcome.nullable(),
  accounts: z.array(brokerAccount),
});

/** GET /api/connections */
export const brokerConnectionList = z.strictObject({
  providers: z.array(
    z.strictObject({
      id: z.enum(PROVIDERS),
      label: z.string(),
      /** The gateway's host (PROJECTX_API_URL). */
      host: z.string(),
      /** The firms a connection may choose, each at its own gateway ('configured' is PROJECTX_API_URL). */
      firms: z.array(z.strictObject({ id: z.string(), label: z.string(), host: z.string() })),
      /** When the list of firms' gateways was last checked (yyyy-MM-dd). */
      firms_checked: z.iso.date(),
      /** Minutes between scheduled syncs; 0 when only 'Sync now' syncs. */
      sync_minutes: z.number().int(),
    }),
  ),
  connections: z.array(brokerConnection),
});

export type ConnectionInput = z.infer<typeof connectionInput>;
export type ConnectionUpdate = z.infer<typeof connectionUpdate>;
export type BrokerAccountUpdate = z.infer<typeof brokerAccountUpdate>;
export type ConnectionTest = z.infer<typeof connectionTest>;
export type BrokerAccount = z.infer<typeof brokerAccount>;
export type SyncProgress = z.infer<typeof syncProgress>;
export type SyncOutcome = z.infer<typeof syncOutcome>;
export type BrokerConnection = z.infer<typeof brokerConnection>;
export type BrokerConnectionList = z.infer<typeof brokerConnectionList>;
