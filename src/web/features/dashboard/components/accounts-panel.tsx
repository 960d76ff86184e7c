import { Drawer } from '@mantine/core';
import { AccountManagerPanel } from '../../accounts';
import type { AccountFilter } from '../../../shared/api';

/** The account management side panel of the dashboard: the accounts feature's manager. */
export function AccountsPanel(props: { opened: boolean; onClose: () => void; account: AccountFilter; onSelect: (account: AccountFilter) => void }) {
  const { opened, onClose, account, onSelect } = props;
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="md" title="Account Management">
      <AccountManagerPanel selectedAccount={account} onSelectAccount={onSelect} />
    </Drawer>
  );
}
