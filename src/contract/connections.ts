import { z } from 'zod';
import { findPropTemplate } from '../domain/prop/templates';
import { CREDENTIAL_KINDS, CREDENTIAL_OF, PROVIDERS, type CredentialKind } from '../domain/connections/providers';
import { CURRENCIES } from '../domain/reports/currency';
import { calendarDay, decimal, instant } from './common';

/**
 * Broker connections: a ProjectX firm's login (TopstepX and others, each at its own gateway) by user name and API key,
 * a crypto exchange by a read-only API key and its secret (Binance USD-M, Bybit) or by a wallet address (Hyperliquid);
 * their accounts mapped to trading accounts, and syncs. A key or secret goes in (connect, replace) and never comes back
 * out: no answer carries it.
 */

export { CREDENTIAL_KINDS, CREDENTIAL_OF, EXCHANGE_PROVIDERS, isExchangeProvider, PROVIDERS } from '../domain/connections/providers';
export type { CredentialKind, ExchangeProviderId, ProviderId } from '../domain/connections/providers';

const userName = z.string({ error: 'is required' }).trim().min(1, 'is required').max(200, 'must be at most 200 characters');
const apiKey = z.string({ error: 'is required' }).trim().min(1, 'is required').max(1000, 'must be at most 1000 characters');
const apiSecret = z.string({ error: 'is required' }).trim().min(1, 'is required').max(1000, 'must be at most 1000 characters');
const walletAddress = z
  .string({ error: 'is required' })
  .trim()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a wallet address: 0x and 40 hexadecimal digits')
  .transform((address) => address.toLowerCase());

/** The fields each way of connecting takes. */
const FIELDS_OF: Readonly<Record<CredentialKind, readonly string[]>> = {
  'user-key': ['user_name', 'api_key'],
  'key-secret': ['api_key', 'api_secret'],
  wallet: ['wallet_address'],
};
const CREDENTIAL_FIELDS = ['user_name', 'api_key', 'api_secret', 'wallet_address'] as const;

/**
 * POST /api/connections (connect) and POST /api/connections/test (sign in and list the accounts, saving nothing): the
 * provider (TopstepX when not given) and the fields its way of connecting takes, no others.
 */
export const connectionInput = z
  .strictObject({
    provider: z.enum(PROVIDERS, { error: "must be 'topstepx', 'binance', 'bybit' or 'hyperliquid'" }).default('topstepx'),
    /** The ProjectX firm whose gateway the key is for (GET /api/connections lists them); the server's configured one by default. */
    firm: z.string().trim().min(1, 'is required').max(40, 'must be at most 40 characters').optional(),
    user_name: userName.optional(),
    api_key: apiKey.optional(),
    api_secret: apiSecret.optional(),
    wallet_address: walletAddress.optional(),
  })
  .superRefine((input, ctx) => {
    const wanted = FIELDS_OF[CREDENTIAL_OF[input.provider]];
    for (const field of CREDENTIAL_FIELDS) {
      const given = input[field] !== undefined;
      if (wanted.includes(field) && !given) ctx.addIssue({ code: 'custom', path: [field], message: 'is required' });
      if (!wanted.includes(field) && given) ctx.addIssue({ code: 'custom', path: [field], message: `is not used to connect ${input.provider}` });
    }
    // Firms are ProjectX's: an exchange is the firm itself.
    if (input.firm !== undefined && input.provider !== 'topstepx')
      ctx.addIssue({ code: 'custom', path: ['firm'], message: `is not used to connect ${input.provider}` });
  });

/**
 * PATCH /api/connections/:id: a new key (a revoked one replaced): TopstepX's API key (and the user name with it if it
 * changed), or an exchange's API key and its secret.
 */
export const connectionUpdate = z.strictObject({ user_name: userName.optional(), api_key: apiKey, api_secret: apiSecret.optional() });

/**
 * PATCH /api/connections/:id/broker-accounts/:brokerAccountId: which trading account a broker account syncs into
 * (null: none), and
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
  .refine(
    (value) => value.account_id !== undefined || value.sync_from !== undefined || value.prop !== undefined,
    'give account_id, sync_from or prop',
  );

/** An account at the provider, as a test of the connection lists it. */
export const providerAccount = z.strictObject({
  external_id: z.string(),
  name: z.string(),
  balance: decimal.nullable(),
  can_trade: z.boolean(),
  active: z.boolean(),
  /** The currency its money is in: USD at a futures broker, USDT or USDC at an exchange. */
  currency: z.enum(CURRENCIES),
});

/** POST /api/connections/test */
export const connectionTest = z.strictObject({
  ok: z.literal(true),
  provider: z.enum(PROVIDERS),
  accounts: z.array(providerAccount),
  /** What the provider said of the key's permissions, when the trader should hear it (it may trade); else null. */
  key_warning: z.string().nullable(),
});

/** A broker account of a connection: where it syncs to and how its last sync went. */
export const brokerAccount = z.strictObject({
  id: z.uuid(),
  external_id: z.string(),
  name: z.string(),
  balance: decimal.nullable(),
  /** The currency of its money (the balance's, and that of the trading account it syncs into). */
  currency: z.enum(CURRENCIES),
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
  /** Funding payments read (an exchange's perpetuals). */
  funding: z.number().int().optional(),
  /** Notes for the trader (exits of positions opened before the first day, an unknown contract). */
  warnings: z.array(z.string()),
});

export const brokerConnection = z.strictObject({
  id: z.uuid(),
  provider: z.enum(PROVIDERS),
  /**
   * The ProjectX firm whose gateway it speaks to ('configured': the server's PROJECTX_API_URL); an exchange's
   * connection names the exchange ('binance').
   */
  firm: z.string(),
  /** The firm's or exchange's name ('TopstepX', 'Binance'). */
  provider_label: z.string(),
  credential: z.enum(CREDENTIAL_KINDS),
  /** The login as the trader knows it: a user name, a wallet address, or "API key ending in 7f3a" (never the key). */
  user_name: z.string(),
  /** What the provider said of the key's permissions when it was last checked (it may trade); else null. */
  key_warning: z.string().nullable(),
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
      credential: z.enum(CREDENTIAL_KINDS),
      /** The API's host (PROJECTX_API_URL, BINANCE_FUTURES_API_URL...). */
      host: z.string(),
      /** The firms a connection may choose, each at its own gateway ('configured' is PROJECTX_API_URL); none for an exchange. */
      firms: z.array(z.strictObject({ id: z.string(), label: z.string(), host: z.string() })),
      /** When the list of firms' gateways was last checked (yyyy-MM-dd); null for an exchange. */
      firms_checked: z.iso.date().nullable(),
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
