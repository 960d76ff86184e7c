import type { AccountKind } from './types';
import type { LedgerKind } from './ledger';
import { PROP_TEMPLATES } from './templates';

/** How the screens name an account's kind. */
export const ACCOUNT_KIND_LABELS: Readonly<Record<AccountKind, string>> = {
  personal: 'Personal',
  evaluation: 'Evaluation',
  funded: 'Funded',
};

/** How the screens name a ledger entry's kind. */
export const LEDGER_KIND_LABELS: Readonly<Record<LedgerKind, string>> = {
  'evaluation-fee': 'Evaluation fee',
  'reset-fee': 'Reset fee',
  'activation-fee': 'Activation fee',
  'data-fee': 'Data fee',
  'other-fee': 'Other fee',
  payout: 'Payout',
};

/** The firms the templates know, offered when an account's firm is typed (any other name is fine). */
export const PROP_FIRMS: readonly string[] = [...new Set(PROP_TEMPLATES.map((t) => t.firm))].sort((a, b) => a.localeCompare(b));
