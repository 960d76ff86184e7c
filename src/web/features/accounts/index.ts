// Trading accounts: the selector and the manager panel, used by the Trade Log and the dashboard.
export { AccountSelector, ALL_TRADES, UNASSIGNED_TRADES, type AccountSelectorProps } from './account-selector';
export { AccountManagerPanel, type AccountManagerPanelProps } from './account-manager-panel';
export { AccountFormModal } from './account-form-modal';
export {
  useAccounts,
  pickDefaultAccount,
  useCreateAccount,
  useUpdateAccount,
  useSetDefaultAccount,
  useDeleteAccount,
  AccountRequestError,
  type AccountFormValues,
} from './api';
export { readAccountChoice, useAccountChoice, type AccountScope } from './use-account-choice';
export { accountLabel } from './account-label';
