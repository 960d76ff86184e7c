import type { AccountKind } from './types';
import type { LedgerKind } from './ledger';

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
