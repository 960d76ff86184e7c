import { UNASSIGNED, type ReportFilter } from './filter';

/**
 * Accounts count money in their own currency: USD for futures, USDT or USDC for a crypto exchange's account. A figure
 * adds amounts up, so it is only ever computed over accounts of one currency; nothing converts one into another.
 *
 * The rule for a filter whose accounts (those it names, or every account when it names none) span currencies: its
 * figures are those of its accounts in the trader's main currency, and the basis says which accounts were left out. The
 * main currency is the trader's default account's when the filter covers that account (a futures trader who connected
 * an exchange keeps seeing their dollar figures, as before), else that of the first account the filter names. Trades
 * without an account count in USD. A trader sees an exchange account's figures by choosing it in the filter.
 */

export const CURRENCIES = ['USD', 'USDT', 'USDC'] as const;
export type Currency = (typeof CURRENCIES)[number];

export interface AccountCurrency {
  id: string;
  name: string;
  currency: Currency;
  isDefault: boolean;
}

export interface OneCurrencyScope {
  /** The filter narrowed to the accounts of `currency` (the filter itself when it spans one currency). */
  filter: ReportFilter;
  currency: Currency;
  /** Accounts the filter covered but the figures leave out (another currency), in the order given. */
  leftOut: AccountCurrency[];
}

export const isCurrency = (value: unknown): value is Currency => typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);

/** The filter's figures in one currency: the filter narrowed to its accounts of the main currency (see above). */
export function narrowToOneCurrency(filter: ReportFilter, accounts: readonly AccountCurrency[]): OneCurrencyScope {
  const byId = new Map(accounts.map((account) => [account.id, account]));
  const named = filter.account.length > 0;
  // Ids the trader does not own stay as they are: they select no trade either way.
  const covered = named ? filter.account.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])) : [...accounts];
  const unassigned = named && filter.account.includes(UNASSIGNED);
  const currencies = new Set<Currency>(covered.map((account) => account.currency));
  if (unassigned) currencies.add('USD');
  if (currencies.size <= 1) return { filter, currency: currencies.values().next().value ?? 'USD', leftOut: [] };

  const home = accounts.find((account) => account.isDefault);
  const currency: Currency = home && covered.includes(home) ? home.currency : (covered[0]?.currency ?? 'USD');
  const kept = covered.filter((account) => account.currency === currency).map((account) => account.id);
  const leftOut = covered.filter((account) => account.currency !== currency);
  const unknown = filter.account.filter((id) => id !== UNASSIGNED && !byId.has(id));
  // Trades without an account count in USD: kept in USD figures, whether the filter named them or named no account.
  const account = [...kept, ...(currency === 'USD' && (unassigned || !named) ? [UNASSIGNED] : []), ...unknown];
  return { filter: { ...filter, account }, currency, leftOut };
}

/** The basis's words for accounts a figure left out: "USDT accounts (Binance USDT) are not added to USD figures". */
export function describeLeftOut(scope: Pick<OneCurrencyScope, 'currency' | 'leftOut'>): string | null {
  if (scope.leftOut.length === 0) return null;
  const byCurrency = new Map<Currency, string[]>();
  for (const account of scope.leftOut) {
    const names = byCurrency.get(account.currency) ?? [];
    names.push(account.name);
    byCurrency.set(account.currency, names);
  }
  const parts = [...byCurrency].map(([currency, names]) => `${names.join(', ')} (${currency})`);
  return `In ${scope.currency} only: ${parts.join('; ')} ${scope.leftOut.length === 1 ? 'is' : 'are'} left out, as amounts in different currencies are never added together. Choose ${scope.leftOut.length === 1 ? 'that account' : 'those accounts'} in the filter to see ${scope.leftOut.length === 1 ? 'its' : 'their'} figures.`;
}
