import { Button, Group, Modal, NumberInput } from '@mantine/core';
import { useState } from 'react';
import { parseStartingBalance } from '../../../../domain/stats';
import { useUpdatePreferences } from '../api';

/** Spec part 1 §5: the starting balance of the Account Balance chart. */
export function BalanceSettingsDialog({ onClose, startingCents }: { onClose: () => void; startingCents: number }) {
  const save = useUpdatePreferences({ errorMessage: 'Failed to save the starting balance' });
  const [value, setValue] = useState<string | number>(startingCents / 100);
  return (
    <Modal opened onClose={onClose} title="Account Balance Settings" centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          // Spec part 1 §5: numeric, falling back to 0.
          const cents = parseStartingBalance(value);
          save.mutate({ starting_balance: (cents / 100).toFixed(2) }, { onSuccess: onClose });
        }}
      >
        <NumberInput
          label="Starting Balance"
          description="The balance the chart starts from (USD)."
          value={value}
          onChange={setValue}
          prefix="$"
          thousandSeparator=","
          decimalScale={2}
          data-autofocus
        />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
