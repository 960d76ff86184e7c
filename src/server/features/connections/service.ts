import crypto from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { addDays, getTodayInZone } from '../../../domain/dates';
import { centsToDecimalString, toCents } from '../../../domain/money';
import { findPropTemplate, suggestPropTemplate } from '../../../domain/prop/templates';
import {
  CREDENTIAL_OF,
  isExchangeProvider,
  type BrokerAccount,
  type BrokerAccountUpdate,
  type BrokerConnection,
  type BrokerConnectionList,
  type ConnectionInput,
  type ConnectionTest,
  type ConnectionUpdate,
  type ProviderId,
  type SyncOutcome,
  type SyncProgress,
} from '../../../contract/connections';
import { ConnectorError, type BrokerAccount as ProviderAccount } from '../../connectors/types';
import type { Database, Tx } from '../../db/client';
import { importAccountLinks } from '../../db/schema';
import { badRequest, conflict, HttpError, notFound } from '../../http/errors';
import { accountsRepo } from '../../core/accounts/repo';
import { preferencesIn } from '../../core/preferences/repo';
import { propRepo } from '../../core/prop/repo';
import { CONFIGURED_FIRM } from '../../connectors/projectx-firms';
import type { ConnectorRegistry } from './registry';
import { credentialFields, currencyOfBrokerAccount, exchangeCredentialsOf, loginOf } from './logins';
import { connectionsRepo, type BrokerAccountRow, type ConnectionRow } from './repo';
import { secretBinding, type SecretBox } from './secret-box';
import { SYNC_LOCK, type SyncRunner } from './sync';
import { DEFAULT_HISTORY_DAYS, SYNC_STALE_MS } from './sync-shared';

/**
 * Broker connections: connect with a ProjectX firm, a user name and an API key (checked with the firm's gateway), an
 * exchange's read-only API key and secret, or a wallet address (checked with the provider before anything is saved,
 * then kept only as ciphertext), list and map the provider's accounts, start syncs and report them. A key is read back
 * only by the sync, never into an answer.
 */

export interface ConnectionsDeps {
  database: Database;
  box: SecretBox;
  registry: ConnectorRegistry;
  syncs: SyncRunner;
  /** PROJECTX_SYNC_MINUTES as configured. */
  syncMinutes: number;
}

const NOT_FOUND = 'Connection not found';

/** A provider's refusal or failure as an answer: the trader's words, and what kind it is. */
export function brokerFailure(error: unknown, provider: ProviderId = 'topstepx'): never {
  if (!(error instanceof ConnectorError)) throw error;
  switch (error.kind) {
    case 'credentials':
      throw badRequest(error.message, {
        code: 'broker-credentials',
        fields: credentialFields(provider).map((field) => ({ field, message: error.message })),
      });
    case 'rate-limited':
      throw new HttpError(503, error.message, { code: 'broker-rate-limited' });
    case 'timeout':
      throw new HttpError(504, error.message, { code: 'broker-timeout' });
    default:
      throw new HttpError(502, error.message, { code: error.kind === 'unavailable' ? 'broker-unavailable' : 'broker-unexpected' });
  }
}

/**
 * A sync is under way while the row says so, its heartbeat is fresh, and a process holds its lock: the lock ends with
 * the process that holds it, so a sync whose process was killed is over at once, not when its heartbeat goes stale.
 */
async function isRunning(database: Database, row: ConnectionRow): Promise<boolean> {
  const marked = row.syncStartedAt !== null && row.syncHeartbeatAt !== null && Date.now() - Date.parse(row.syncHeartbeatAt) < SYNC_STALE_MS;
  return marked && (await database.lockHeld(SYNC_LOCK, row.id));
}

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

function toAccountDto(row: BrokerAccountRow, suggested: string | null, label: string, provider: string): BrokerAccount {
  return {
    id: row.id,
    external_id: row.externalId,
    name: row.name,
    balance: row.balance,
    currency: currencyOfBrokerAccount(provider, row.externalId),
    can_trade: row.canTrade,
    active: row.active,
    simulated: row.simulated,
    listed: row.listed,
    account_id: row.accountId,
    suggested_account_id: row.accountId === null ? suggested : null,
    suggested_template_id:
      suggestPropTemplate({ platform: label, name: row.name, balanceCents: row.balance === null ? null : toCents(row.balance) })?.id ?? null,
    sync_from: row.syncFrom,
    fetched_until: iso(row.fetchedUntil),
    last_sync_at: iso(row.lastSyncAt),
    last_sync_added: row.lastSyncAdded,
    last_sync_status: row.lastSyncStatus as BrokerAccount['last_sync_status'],
    last_error: row.lastError,
    open_positions: (row.openPositions as BrokerAccount['open_positions']) ?? null,
    positions_read_at: iso(row.positionsReadAt),
  };
}

/**
 * The trading account a broker account probably belongs in, for the picker: the one an import of the provider's CSV
 * export sent its account to before (the export names it), else one with the same name.
 */
async function suggestionsFor(tx: Tx, userId: string, accounts: BrokerAccountRow[]): Promise<Map<string, string>> {
  const names = [...new Set(accounts.filter((a) => a.accountId === null).map((a) => a.name))];
  const found = new Map<string, string>();
  if (names.length === 0) return found;
  const links = await tx
    .select({ fileAccount: importAccountLinks.fileAccount, accountId: importAccountLinks.accountId })
    .from(importAccountLinks)
    .where(and(eq(importAccountLinks.userId, userId), inArray(importAccountLinks.fileAccount, names)));
  const byName = new Map((await accountsRepo(tx, userId).list()).map((a) => [a.name.trim().toLowerCase(), a.id]));
  for (const name of names) {
    const linked = links.find((l) => l.fileAccount === name)?.accountId ?? byName.get(name.trim().toLowerCase());
    if (linked) found.set(name, linked);
  }
  return found;
}

async function readConnection(
  database: Database,
  tx: Tx,
  userId: string,
  row: ConnectionRow,
  registry: ConnectorRegistry,
): Promise<BrokerConnection> {
  const accounts = await connectionsRepo(tx, userId).accounts(row.id);
  const suggestions = await suggestionsFor(tx, userId, accounts);
  const running = await isRunning(database, row);
  const provider = row.provider as ProviderId;
  const label = registry.labelOf(provider, row.firm);
  return {
    id: row.id,
    provider,
    firm: row.firm,
    provider_label: label,
    credential: CREDENTIAL_OF[provider],
    user_name: row.displayName ?? row.userName,
    key_warning: row.keyWarning,
    status: row.status as BrokerConnection['status'],
    last_error: row.lastError,
    last_sync_at: iso(row.lastSyncAt),
    created_at: new Date(row.createdAt).toISOString(),
    sync: {
      running,
      started_at: running ? iso(row.syncStartedAt) : null,
      progress: running ? (row.syncProgress as SyncProgress | null) : null,
    },
    last_outcome: (row.lastOutcome as SyncOutcome | null) ?? null,
    accounts: accounts.map((a) => toAccountDto(a, suggestions.get(a.name) ?? null, label, provider)),
  };
}

const toProviderAccount = (provider: ProviderId) => (a: ProviderAccount) => ({
  external_id: a.externalId,
  name: a.name,
  balance: a.balance,
  can_trade: a.canTrade,
  active: a.active,
  currency: currencyOfBrokerAccount(provider, a.externalId),
});

/**
 * The offer taken while mapping: the trading account becomes the template's kind of account at its firm, of its size,
 * starting from that size (a prop firm's plan starts at its size), with the template's rules counting all of its
 * trades. In the mapping's transaction: both or neither.
 */
async function makePropAccount(tx: Tx, userId: string, accountId: string, templateId: string) {
  const template = findPropTemplate(templateId);
  // The contract let only a known template through.
  if (!template) throw badRequest('prop.template_id: no such template', { fields: [{ field: 'prop.template_id', message: 'no such template' }] });
  const size = centsToDecimalString(template.sizeCents);
  const accounts = accountsRepo(tx, userId);
  await accounts.update(accountId, { kind: template.kind, firm: template.firm, size, startingBalance: size });
  await accounts.setLedgerFirm(accountId, template.firm);
  await propRepo(tx, userId).upsertRuleSet(accountId, { templateId: template.id, rules: template.rules, startsOn: null, active: true });
}

export function createConnectionsService(deps: ConnectionsDeps) {
  const { database, box, registry, syncs } = deps;

  /** The firm a request names, or the server's configured one; a firm this server does not offer is a 400. */
  function firmOf(input: { firm?: string | undefined }): string {
    const firm = input.firm ?? CONFIGURED_FIRM;
    if (!registry.has(firm)) {
      throw badRequest(`firm: this server does not offer '${firm}'`, { fields: [{ field: 'firm', message: 'not a firm this server offers' }] });
    }
    return firm;
  }

  /** A connection's firm: a ProjectX firm's gateway, or the exchange itself. */
  const firmOfInput = (input: ConnectionInput): string => (isExchangeProvider(input.provider) ? input.provider : firmOf(input));

  /** Where a connection's bars are kept: its firm's gateway, or its exchange's API. */
  const barSourceOf = (provider: ProviderId, firm: string): string =>
    isExchangeProvider(provider) ? registry.exchange(provider).barSource : registry.get(provider, firm).barSource;

  /** Signs in with the credentials and lists the accounts: the check before anything is saved. */
  async function signIn(input: ConnectionInput, firm: string): Promise<{ accounts: ProviderAccount[]; keyWarning: string | null }> {
    try {
      // Two attempts, not four: the trader is waiting for this answer.
      if (isExchangeProvider(input.provider)) {
        const login = loginOf(input, box);
        const session = await registry.exchange(input.provider).connect(exchangeCredentialsOf(login.userName, login.secret), { attempts: 2 });
        return { accounts: await session.listAccounts(), keyWarning: session.keyWarning };
      }
      const session = await registry.get(input.provider, firm).connect({ userName: input.user_name!, apiKey: input.api_key! }, { attempts: 2 });
      return { accounts: await session.listAccounts(), keyWarning: null };
    } catch (error) {
      return brokerFailure(error, input.provider);
    }
  }

  /** "TopstepX user alice.px", "Binance API key ending in 7f3a", "Hyperliquid wallet 0x...": a login in a message. */
  const describeLogin = (provider: ProviderId, shown: string, firm?: string) =>
    `${registry.labelOf(provider, firm)} ${CREDENTIAL_OF[provider] === 'user-key' ? `user ${shown}` : CREDENTIAL_OF[provider] === 'wallet' ? `wallet ${shown}` : shown}`;

  async function get(userId: string, id: string): Promise<BrokerConnection> {
    return database.withUser(userId, async (tx) => {
      const row = await connectionsRepo(tx, userId).find(id);
      if (!row) throw notFound(NOT_FOUND);
      return readConnection(database, tx, userId, row, registry);
    });
  }

  return {
    async list(userId: string): Promise<BrokerConnectionList> {
      const connections = await database.withUser(userId, async (tx) => {
        const rows = await connectionsRepo(tx, userId).list();
        const out: BrokerConnection[] = [];
        for (const row of rows) out.push(await readConnection(database, tx, userId, row, registry));
        return out;
      });
      return {
        providers: registry.providers().map((p) => ({ ...p, sync_minutes: deps.syncMinutes })),
        connections,
      };
    },

    get,

    async test(input: ConnectionInput): Promise<ConnectionTest> {
      const { accounts, keyWarning } = await signIn(input, firmOfInput(input));
      return { ok: true, provider: input.provider, accounts: accounts.map(toProviderAccount(input.provider)), key_warning: keyWarning };
    },

    async connect(userId: string, input: ConnectionInput): Promise<BrokerConnection> {
      const firm = firmOfInput(input);
      const login = loginOf(input, box);
      const shown = login.displayName ?? login.userName;
      const known = await database.withUser(userId, (tx) => connectionsRepo(tx, userId).findLogin(input.provider, firm, login.userName));
      if (known) {
        throw conflict(
          `${describeLogin(input.provider, shown, firm)} is connected already${CREDENTIAL_OF[input.provider] === 'wallet' ? '.' : ': replace its API key there instead.'}`,
          { code: 'already-connected' },
        );
      }
      const { accounts, keyWarning } = await signIn(input, firm);
      const id = crypto.randomUUID();
      const barSource = barSourceOf(input.provider, firm);
      const row = await database.withUser(userId, async (tx) => {
        const repo = connectionsRepo(tx, userId);
        // The same login connected by another request meanwhile: the unique constraint answers, as a 409.
        if (await repo.findLogin(input.provider, firm, login.userName))
          throw conflict(`${describeLogin(input.provider, shown, firm)} is connected already.`, { code: 'already-connected' });
        const created = await repo.insert({
          id,
          provider: input.provider,
          firm,
          barSource,
          userName: login.userName,
          displayName: login.displayName,
          keyWarning,
          secret: box.seal(login.secret, secretBinding(id, userId)),
        });
        await repo.rememberAccounts(id, accounts);
        return created;
      });
      return database.withUser(userId, (tx) => readConnection(database, tx, userId, row, registry));
    },

    async update(userId: string, id: string, input: ConnectionUpdate): Promise<BrokerConnection> {
      const row = await database.withUser(userId, (tx) => connectionsRepo(tx, userId).find(id));
      if (!row) throw notFound(NOT_FOUND);
      const provider = row.provider as ProviderId;
      const kind = CREDENTIAL_OF[provider];
      if (kind === 'wallet') {
        throw badRequest(`A ${registry.labelOf(provider, row.firm)} wallet is read without a key: there is nothing to replace.`, {
          fields: [{ field: 'api_key', message: 'is not used by this connection' }],
        });
      }
      if (kind === 'key-secret' && input.api_secret === undefined)
        throw badRequest('api_secret: is required', { fields: [{ field: 'api_secret', message: 'is required' }] });
      if (kind === 'key-secret' && input.user_name !== undefined)
        throw badRequest('user_name: is not used by this connection', {
          fields: [{ field: 'user_name', message: 'is not used by this connection' }],
        });
      if (kind === 'user-key' && input.api_secret !== undefined)
        throw badRequest('api_secret: is not used by this connection', {
          fields: [{ field: 'api_secret', message: 'is not used by this connection' }],
        });
      const given: ConnectionInput =
        kind === 'user-key'
          ? { provider, user_name: input.user_name ?? row.userName, api_key: input.api_key }
          : { provider, api_key: input.api_key, api_secret: input.api_secret };
      const login = loginOf(given, box);
      const { accounts, keyWarning } = await signIn(given, row.firm);
      await database.withUser(userId, async (tx) => {
        const repo = connectionsRepo(tx, userId);
        if (login.userName !== row.userName && (await repo.findLogin(row.provider, row.firm, login.userName))) {
          throw conflict(`${describeLogin(provider, login.displayName ?? login.userName, row.firm)} is connected already.`, {
            code: 'already-connected',
          });
        }
        const updated = await repo.update(id, {
          userName: login.userName,
          displayName: login.displayName,
          keyWarning,
          secret: box.seal(login.secret, secretBinding(id, userId)),
          status: 'connected',
          lastError: null,
        });
        if (!updated) throw notFound(NOT_FOUND);
        await repo.rememberAccounts(id, accounts);
      });
      return get(userId, id);
    },

    async remove(userId: string, id: string): Promise<void> {
      const removed = await database.withUser(userId, (tx) => connectionsRepo(tx, userId).remove(id));
      if (!removed) throw notFound(NOT_FOUND);
    },

    /**
     * Which trading account a broker account syncs into, and from which day. One broker account per trading account:
     * copy traders' accounts have the same fills at the same second, and one trading account would keep only one of
     * each (the two-export duplicate rule). A change reads the history again from the chosen day.
     */
    async mapAccount(userId: string, connectionId: string, brokerAccountId: string, input: BrokerAccountUpdate): Promise<BrokerConnection> {
      await database.withUser(userId, async (tx) => {
        const repo = connectionsRepo(tx, userId);
        const connection = await repo.find(connectionId);
        if (!connection) throw notFound(NOT_FOUND);
        const account = await repo.account(connectionId, brokerAccountId, true);
        if (!account) throw notFound('Broker account not found');
        const accountId = input.account_id === undefined ? account.accountId : input.account_id;
        if (accountId !== null && accountId !== account.accountId) {
          const accounts = accountsRepo(tx, userId);
          const target = await accounts.find(accountId);
          if (!target) throw badRequest('account_id: Trading account not found', { code: 'account-not-found' });
          const other = await repo.mappedTo(accountId, account.id);
          if (other) {
            throw conflict(`That trading account already receives ${other.name}: give ${account.name} a trading account of its own.`, {
              code: 'account-taken',
              fields: [{ field: 'account_id', message: `already receives ${other.name}` }],
            });
          }
          // Its money is in the broker account's currency: an empty trading account takes that currency; one that holds
          // trades in another currency is refused, as amounts in two currencies are never added together.
          const currency = currencyOfBrokerAccount(connection.provider, account.externalId);
          if (target.currency !== currency) {
            if (await accounts.hasTrades(accountId)) {
              throw conflict(
                `${target.name} holds trades in ${target.currency}, and ${account.name} trades in ${currency}: give it a trading account of its own (amounts in different currencies are never added together).`,
                { code: 'account-currency', fields: [{ field: 'account_id', message: `counts in ${target.currency}` }] },
              );
            }
            await accounts.update(accountId, { currency });
          }
        }
        let syncFrom = input.sync_from ?? account.syncFrom;
        if (accountId !== null && syncFrom === null) {
          const preferences = await preferencesIn(tx, userId);
          syncFrom = addDays(getTodayInZone(new Date(), preferences.timeZone), -DEFAULT_HISTORY_DAYS);
        }
        const changed = accountId !== account.accountId || syncFrom !== account.syncFrom;
        await repo.updateAccount(account.id, {
          accountId,
          syncFrom,
          ...(changed && { fetchedUntil: null, flatPoints: {}, lastSyncAt: null, lastSyncAdded: null, lastSyncStatus: null, lastError: null }),
        });
        if (input.prop) {
          if (accountId === null) {
            throw badRequest('prop: choose the trading account (account_id) it makes a prop account', {
              fields: [{ field: 'prop', message: 'needs a trading account' }],
            });
          }
          await makePropAccount(tx, userId, accountId, input.prop.template_id);
        }
      });
      return get(userId, connectionId);
    },

    /** Starts a sync off the request path; the answer is the connection with its sync under way. */
    async sync(userId: string, id: string): Promise<BrokerConnection> {
      const connection = await get(userId, id);
      if (!connection.accounts.some((a) => a.account_id !== null)) {
        throw badRequest(`Choose a trading account for at least one ${connection.provider_label} account first.`, {
          code: 'nothing-mapped',
          fields: [{ field: 'account_id', message: 'no account is mapped' }],
        });
      }
      const started = await syncs.start(userId, id, 'manual');
      const answer = await get(userId, id);
      // The answer is about the sync this request started: one so quick that it ended before the connection was read
      // again still answers as started (its outcome already in last_outcome), as a client polls until it is over.
      if (started === 'started' && !answer.sync.running) {
        return { ...answer, sync: { running: true, started_at: answer.last_outcome?.started_at ?? null, progress: null } };
      }
      return answer;
    },
  };
}

export type ConnectionsService = ReturnType<typeof createConnectionsService>;
