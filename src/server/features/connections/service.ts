import crypto from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { addDays, getTodayInZone } from '../../../domain/dates';
import { centsToDecimalString, toCents } from '../../../domain/money';
import { findPropTemplate, suggestPropTemplate } from '../../../domain/prop/templates';
import type {
  BrokerAccount,
  BrokerAccountUpdate,
  BrokerConnection,
  BrokerConnectionList,
  ConnectionInput,
  ConnectionTest,
  ConnectionUpdate,
  SyncOutcome,
  SyncProgress,
} from '../../../contract/connections';
import { ConnectorError, type BrokerAccount as ProviderAccount, type ConnectorSession } from '../../connectors/types';
import type { Database, Tx } from '../../db/client';
import { importAccountLinks } from '../../db/schema';
import { badRequest, conflict, HttpError, notFound } from '../../http/errors';
import { accountsRepo } from '../../core/accounts/repo';
import { preferencesIn } from '../../core/preferences/repo';
import { propRepo } from '../prop/repo';
import { CONFIGURED_FIRM } from '../../connectors/projectx-firms';
import type { ConnectorRegistry } from './registry';
import { connectionsRepo, type BrokerAccountRow, type ConnectionRow } from './repo';
import { secretBinding, type SecretBox } from './secret-box';
import { DEFAULT_HISTORY_DAYS, SYNC_STALE_MS, type SyncRunner } from './sync';

/**
 * Broker connections: connect with a firm, a user name and an API key (checked with the firm's gateway before anything
 * is saved, then kept only as ciphertext), list and map the provider's accounts, start syncs and report them. The key
 * is read back only by the sync, never into an answer.
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
export function brokerFailure(error: unknown): never {
  if (!(error instanceof ConnectorError)) throw error;
  switch (error.kind) {
    case 'credentials':
      throw badRequest(error.message, {
        code: 'broker-credentials',
        fields: [
          { field: 'user_name', message: error.message },
          { field: 'api_key', message: error.message },
        ],
      });
    case 'rate-limited':
      throw new HttpError(503, error.message, { code: 'broker-rate-limited' });
    case 'timeout':
      throw new HttpError(504, error.message, { code: 'broker-timeout' });
    default:
      throw new HttpError(502, error.message, { code: error.kind === 'unavailable' ? 'broker-unavailable' : 'broker-unexpected' });
  }
}

function isRunning(row: ConnectionRow): boolean {
  return row.syncStartedAt !== null && row.syncHeartbeatAt !== null && Date.now() - Date.parse(row.syncHeartbeatAt) < SYNC_STALE_MS;
}

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

function toAccountDto(row: BrokerAccountRow, suggested: string | null, label: string): BrokerAccount {
  return {
    id: row.id,
    external_id: row.externalId,
    name: row.name,
    balance: row.balance,
    can_trade: row.canTrade,
    active: row.active,
    simulated: row.simulated,
    listed: row.listed,
    account_id: row.accountId,
    suggested_account_id: row.accountId === null ? suggested : null,
    suggested_template_id: suggestPropTemplate({ platform: label, name: row.name, balanceCents: row.balance === null ? null : toCents(row.balance) })?.id ?? null,
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

async function readConnection(tx: Tx, userId: string, row: ConnectionRow, registry: ConnectorRegistry): Promise<BrokerConnection> {
  const label = registry.get('topstepx', row.firm).label;
  const accounts = await connectionsRepo(tx, userId).accounts(row.id);
  const suggestions = await suggestionsFor(tx, userId, accounts);
  const running = isRunning(row);
  return {
    id: row.id,
    provider: 'topstepx',
    firm: row.firm,
    provider_label: label,
    user_name: row.userName,
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
    accounts: accounts.map((a) => toAccountDto(a, suggestions.get(a.name) ?? null, label)),
  };
}

const toProviderAccount = (a: ProviderAccount) => ({ external_id: a.externalId, name: a.name, balance: a.balance, can_trade: a.canTrade, active: a.active });

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
  const labelOf = (firm: string) => registry.get('topstepx', firm).label;

  /** The firm a request names, or the server's configured one; a firm this server does not offer is a 400. */
  function firmOf(input: { firm?: string | undefined }): string {
    const firm = input.firm ?? CONFIGURED_FIRM;
    if (!registry.has(firm)) {
      throw badRequest(`firm: this server does not offer '${firm}'`, { fields: [{ field: 'firm', message: 'not a firm this server offers' }] });
    }
    return firm;
  }

  /** Signs in with the credentials and lists the accounts: the check before anything is saved. */
  async function signIn(firm: string, input: { user_name: string; api_key: string }): Promise<{ session: ConnectorSession; accounts: ProviderAccount[] }> {
    try {
      // Two attempts, not four: the trader is waiting for this answer.
      const session = await registry.get('topstepx', firm).connect({ userName: input.user_name, apiKey: input.api_key }, { attempts: 2 });
      return { session, accounts: await session.listAccounts() };
    } catch (error) {
      return brokerFailure(error);
    }
  }

  async function get(userId: string, id: string): Promise<BrokerConnection> {
    return database.withUser(userId, async (tx) => {
      const row = await connectionsRepo(tx, userId).find(id);
      if (!row) throw notFound(NOT_FOUND);
      return readConnection(tx, userId, row, registry);
    });
  }

  return {
    async list(userId: string): Promise<BrokerConnectionList> {
      const connections = await database.withUser(userId, async (tx) => {
        const rows = await connectionsRepo(tx, userId).list();
        const out: BrokerConnection[] = [];
        for (const row of rows) out.push(await readConnection(tx, userId, row, registry));
        return out;
      });
      return {
        providers: registry.providers().map((p) => ({ ...p, sync_minutes: deps.syncMinutes })),
        connections,
      };
    },

    get,

    async test(input: ConnectionInput): Promise<ConnectionTest> {
      const { accounts } = await signIn(firmOf(input), input);
      return { ok: true, provider: 'topstepx', accounts: accounts.map(toProviderAccount) };
    },

    async connect(userId: string, input: ConnectionInput): Promise<BrokerConnection> {
      const firm = firmOf(input);
      const label = labelOf(firm);
      const known = await database.withUser(userId, (tx) => connectionsRepo(tx, userId).findLogin(input.provider, firm, input.user_name));
      if (known) throw conflict(`${label} user ${input.user_name} is connected already: replace its API key there instead.`, { code: 'already-connected' });
      const { accounts } = await signIn(firm, input);
      const id = crypto.randomUUID();
      const barSource = registry.get('topstepx', firm).barSource;
      const row = await database.withUser(userId, async (tx) => {
        const repo = connectionsRepo(tx, userId);
        // The same login connected by another request meanwhile: the unique constraint answers, as a 409.
        if (await repo.findLogin(input.provider, firm, input.user_name)) throw conflict(`${label} user ${input.user_name} is connected already.`, { code: 'already-connected' });
        const created = await repo.insert({ id, provider: input.provider, firm, barSource, userName: input.user_name, secret: box.seal(input.api_key, secretBinding(id, userId)) });
        await repo.rememberAccounts(id, accounts);
        return created;
      });
      return database.withUser(userId, (tx) => readConnection(tx, userId, row, registry));
    },

    async update(userId: string, id: string, input: ConnectionUpdate): Promise<BrokerConnection> {
      const row = await database.withUser(userId, (tx) => connectionsRepo(tx, userId).find(id));
      if (!row) throw notFound(NOT_FOUND);
      const userName = input.user_name ?? row.userName;
      const label = labelOf(row.firm);
      const { accounts } = await signIn(row.firm, { user_name: userName, api_key: input.api_key });
      await database.withUser(userId, async (tx) => {
        const repo = connectionsRepo(tx, userId);
        if (userName !== row.userName && (await repo.findLogin(row.provider, row.firm, userName))) {
          throw conflict(`${label} user ${userName} is connected already.`, { code: 'already-connected' });
        }
        const updated = await repo.update(id, { userName, secret: box.seal(input.api_key, secretBinding(id, userId)), status: 'connected', lastError: null });
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
        if (!(await repo.find(connectionId))) throw notFound(NOT_FOUND);
        const account = await repo.account(connectionId, brokerAccountId, true);
        if (!account) throw notFound('Broker account not found');
        const accountId = input.account_id === undefined ? account.accountId : input.account_id;
        if (accountId !== null && accountId !== account.accountId) {
          if (!(await accountsRepo(tx, userId).find(accountId))) throw badRequest('account_id: Trading account not found', { code: 'account-not-found' });
          const other = await repo.mappedTo(accountId, account.id);
          if (other) {
            throw conflict(`That trading account already receives ${other.name}: give ${account.name} a trading account of its own.`, {
              code: 'account-taken',
              fields: [{ field: 'account_id', message: `already receives ${other.name}` }],
            });
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
            throw badRequest('prop: choose the trading account (account_id) it makes a prop account', { fields: [{ field: 'prop', message: 'needs a trading account' }] });
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
        throw badRequest(`Choose a trading account for at least one ${connection.provider_label} account first.`, { code: 'nothing-mapped', fields: [{ field: 'account_id', message: 'no account is mapped' }] });
      }
      await syncs.start(userId, id, 'manual');
      return get(userId, id);
    },
  };
}

export type ConnectionsService = ReturnType<typeof createConnectionsService>;
