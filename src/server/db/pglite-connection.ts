import { AsyncLocalStorage } from 'node:async_hooks';
import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';

/**
 * PGlite is one connection, so one transaction at a time: while a 30,000-trade import inserted, every other request
 * waited for its COMMIT, for seconds. An import must stay all-or-nothing, so its transaction
 * cannot be cut into several; instead, between its statements, it lends its connection to other traders' reads:
 *
 *   - Every query and transaction of the server goes through this queue instead of straight to PGlite.
 *   - A transaction that calls `lend()` between two of its statements (yieldConnection in client.ts) runs the requests
 *     waiting behind it there and then, each inside a savepoint of its transaction that is READ ONLY and rolled back
 *     afterwards, with the role and trader of that request, as its own transaction would have. Row-level security
 *     shows them only their own rows, so they never see the import's uncommitted trades: the lender's own trader is
 *     never lent to (those requests wait for the COMMIT, as before).
 *   - A request that tries to write is stopped by PostgreSQL (read-only, 25006) before it changes anything; its work
 *     is undone with the savepoint and runs again, as a transaction of its own, once the lender's transaction has
 *     ended. A write can never ride on another trader's transaction: if the import then failed, it would be lost.
 *
 * The lender is paused while its guests run (its next statement waits for them), for a bounded time per pause.
 */

/** How long a lender waits for its guests in one pause, at most (a guest is never cut short; the next one waits). */
const LEND_BUDGET_MS = 40;
/** Turns of the event loop a pause waits for more guests (a request's next query follows its previous answer). */
const LEND_IDLE_TURNS = 2;

interface Waiting {
  /** The trader a withUser transaction runs for; null for the owner's queries (sessions, migrations, health). */
  userId: string | null;
  /** Runs on the connection, alone. */
  alone(): Promise<unknown>;
  /** Runs `fn` in the async context the request was in when it asked (async-local storage of its own). */
  inContext<R>(fn: () => R): R;
  /** Runs inside the lender's transaction (after its savepoint is set up); null: only alone (maintenance). */
  asGuest: ((tx: GuestTransaction) => Promise<unknown>) | null;
  /** A maintenance statement (VACUUM, ANALYZE, the autovacuum's look at the statistics): not counted as use. */
  maintenance: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A transaction that may lend its connection, as the code that runs it holds it. */
export type LenderToken = object;

interface Lender {
  userId: string | null;
  tx: Transaction;
  /** Guests that tried to write: they run alone once the lender is done. */
  deferred: Waiting[];
  /** The lender's transaction failed (PostgreSQL refuses every statement until the rollback): no more guests. */
  broken: boolean;
  lending: Promise<void> | null;
}

const READ_ONLY_SQL_TRANSACTION = '25006';

/**
 * What a transaction hears at its next pause, and new work at once, once the database is closing: a long import
 * would otherwise hold the one connection past the time the database is given to close, and the server exited
 * without closing it. PostgreSQL's admin_shutdown code: the request is answered as one that found the database away.
 */
export class DatabaseClosing extends Error {
  readonly code = '57P01';
  constructor() {
    super('the database is closing');
  }
}

function isWriteRefused(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === READ_ONLY_SQL_TRANSACTION) return true;
  }
  return false;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class SharedPglite {
  private readonly queue: Waiting[] = [];
  /** What runs on the connection now (alone, or as the lender of guests); null when it is free. */
  private current: Waiting | null = null;
  private lender: Lender | null = null;
  /** The trader whose transaction is being opened (withUser in client.ts); kept across the driver's awaits. */
  private readonly opening = new AsyncLocalStorage<string>();
  /** The transaction the code running now belongs to, if it runs one alone (not as a guest). */
  private readonly own = new AsyncLocalStorage<Lender | null>();
  /** Guests run so far (the tests check that a long import lent its connection). */
  guests = 0;
  /** Statements run so far as guests with no trader: the server's own (tests check that there are none). */
  ownerGuests = 0;
  /** When a statement other than maintenance last ended (performance.now()); one waiting or running is in the queue. */
  private lastUsed = performance.now();
  /** Set when the database starts closing: nothing new runs, and a transaction under way ends at its next pause. */
  private closing = false;

  constructor(private readonly client: PGlite) {}

  /** Opens a transaction of `userId` through `open` (the driver's transaction call, which reaches transaction()). */
  forUser<T>(userId: string, open: () => Promise<T>): Promise<T> {
    return this.opening.run(userId, open);
  }

  // --- What the driver (drizzle) calls instead of PGlite's own methods. -------------------------------------------

  query = <T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> =>
    this.enqueue(
      null,
      () => this.client.query<T>(text, params, options),
      (tx) => tx.query<T>(text, params, options),
    );

  exec = (text: string, options?: QueryOptions): Promise<Array<Results>> =>
    this.enqueue(
      null,
      () => this.client.exec(text, options),
      (tx) => tx.exec(text, options),
    );

  /**
   * A statement that must run outside any transaction block (VACUUM): queued like the rest, never run as a guest inside
   * another trader's transaction.
   */
  maintain = (text: string): Promise<Array<Results>> => this.enqueue(null, () => this.client.exec(text), null, true);

  /** Whether a transaction holds the connection now (the server's own statements wait for it to end). */
  held(): boolean {
    return this.lender !== null;
  }

  /** Whether nothing but maintenance has run or waited for `ms` (the embedded autovacuum's turn: pglite-autovacuum.ts). */
  idleFor(ms: number): boolean {
    const quiet = (this.current?.maintenance ?? true) && this.queue.every((waiting) => waiting.maintenance);
    return quiet && performance.now() - this.lastUsed >= ms;
  }

  transaction = <T>(callback: (tx: Transaction) => Promise<T>): Promise<T> => {
    const userId = this.opening.getStore() ?? null;
    return this.enqueue(
      userId,
      () => this.client.transaction((tx) => this.lendable(userId, tx, callback)),
      (tx) => callback(tx),
    );
  };

  /**
   * The transaction the code running now opened, or null inside a guest (or outside any transaction). Read it when
   * the transaction's own code starts: code it runs from callbacks of other origins (a worker's messages) does not
   * carry it.
   */
  transactionHere(): LenderToken | null {
    return this.own.getStore() ?? null;
  }

  /**
   * Called between two statements of the transaction `token` (transactionHere), with none of its statements in
   * flight: runs waiting requests of other traders inside it (see above). Nothing happens unless it is the
   * transaction running now.
   */
  async lend(token: LenderToken | null): Promise<void> {
    if (this.closing) throw new DatabaseClosing();
    // Requests that arrived meanwhile are read from their sockets first.
    await nextTurn();
    if (this.closing) throw new DatabaseClosing();
    const lender = this.lender;
    if (!lender || lender !== token || lender.broken) return;
    if (!lender.lending) lender.lending = this.runGuests(lender).finally(() => (lender.lending = null));
    await lender.lending;
  }

  /**
   * The database is about to close: what waits is refused, nothing new starts, and the transaction under way (an
   * import) stops at its next pause and rolls back. Resolves once the connection is free.
   */
  async stopForClose(): Promise<void> {
    this.closing = true;
    this.refuseWaiting();
    while (this.current) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /** Once closing: every request waiting is refused, and a maintenance statement skipped (the next start does it). */
  private refuseWaiting(): void {
    for (const waiting of this.queue.splice(0)) {
      if (waiting.maintenance) waiting.resolve([]);
      else waiting.reject(new DatabaseClosing());
    }
  }

  private enqueue<T>(
    userId: string | null,
    alone: () => Promise<T>,
    asGuest: ((tx: GuestTransaction) => Promise<T>) | null,
    maintenance = false,
  ): Promise<T> {
    if (this.closing) return Promise.reject(new DatabaseClosing());
    return new Promise<T>((resolve, reject) => {
      const inContext = AsyncLocalStorage.snapshot();
      this.queue.push({ userId, alone, asGuest, maintenance, inContext, resolve: resolve as (value: unknown) => void, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.current) return;
    // Writes deferred by a transaction that has just ended are back in the queue: they go the same way.
    if (this.closing) this.refuseWaiting();
    const waiting = this.queue.shift();
    if (!waiting) return;
    this.current = waiting;
    waiting
      .inContext(() => waiting.alone())
      .then(waiting.resolve, waiting.reject)
      .finally(() => {
        this.current = null;
        if (!waiting.maintenance) this.lastUsed = performance.now();
        this.next();
      });
  }

  private async lendable<T>(userId: string | null, tx: Transaction, callback: (tx: Transaction) => Promise<T>): Promise<T> {
    const lender: Lender = { userId, tx, deferred: [], broken: false, lending: null };
    this.lender = lender;
    try {
      return await this.own.run(lender, () => callback(tx));
    } finally {
      this.lender = null;
      // They were waiting before everything behind them: they go first.
      this.queue.unshift(...lender.deferred);
    }
  }

  private async runGuests(lender: Lender): Promise<void> {
    const until = performance.now() + LEND_BUDGET_MS;
    let idle = 0;
    while (performance.now() < until && !lender.broken) {
      // Only another trader's statements: the server's own (sessions, the sync schedule) read as the tables' owner,
      // past row-level security, and inside this transaction would see what it has not committed.
      const index = this.queue.findIndex((w) => w.userId !== null && w.userId !== lender.userId && w.asGuest !== null);
      if (index === -1) {
        if (++idle > LEND_IDLE_TURNS) return;
        await nextTurn();
        continue;
      }
      idle = 0;
      const [guest] = this.queue.splice(index, 1);
      await this.runGuest(lender, guest!);
    }
  }

  private async runGuest(lender: Lender, guest: Waiting): Promise<void> {
    const tx = guestView(lender.tx);
    try {
      // As the owner with no trader, as a transaction of its own starts; withUser's first statement sets its own.
      await tx.exec(
        "savepoint edgebook_guest; set local transaction_read_only = on; select set_config('role', 'none', true), set_config('app.user_id', '', true)",
      );
    } catch {
      // The lender's transaction has failed: this request waits for the connection like any other.
      lender.broken = true;
      this.queue.unshift(guest);
      return;
    }
    let outcome: { value: unknown } | { error: unknown };
    try {
      outcome = { value: await guest.inContext(() => this.own.run(null, () => guest.asGuest!(tx))) };
    } catch (error) {
      outcome = { error };
    }
    try {
      await tx.exec('rollback to savepoint edgebook_guest; release savepoint edgebook_guest');
    } catch (error) {
      // Cannot happen while the savepoint exists; if it does, nothing more runs inside this transaction.
      lender.broken = true;
      if (!('error' in outcome)) outcome = { error };
    }
    this.guests++;
    if (guest.userId === null) this.ownerGuests++;
    // Even if the request caught the refusal itself and went on, what it did is not what it would have done alone.
    if (tx.refusedWrite || ('error' in outcome && isWriteRefused(outcome.error))) {
      lender.deferred.push(guest);
      return;
    }
    if ('error' in outcome) guest.reject(outcome.error);
    else guest.resolve(outcome.value);
  }
}

interface GuestTransaction extends Transaction {
  /** A statement of the guest was refused as a write. */
  readonly refusedWrite: boolean;
}

/** The lender's transaction as a guest sees it: statements only (ending it is the lender's business), watched for writes. */
function guestView(tx: Transaction): GuestTransaction {
  let refusedWrite = false;
  const watch = async <T>(statement: Promise<T>): Promise<T> => {
    try {
      return await statement;
    } catch (error) {
      if (isWriteRefused(error)) refusedWrite = true;
      throw error;
    }
  };
  return {
    query: (text, params, options) => watch(tx.query(text, params, options)),
    sql: (strings, ...params) => watch(tx.sql(strings, ...params)),
    exec: (text, options) => watch(tx.exec(text, options)),
    rollback: async () => {
      throw new Error('A request running inside another transaction cannot roll it back');
    },
    listen: tx.listen,
    get closed() {
      return tx.closed;
    },
    get refusedWrite() {
      return refusedWrite;
    },
  };
}
