import { Anchor, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router';
import type { ImportOutcome } from './api';

type Warning = ImportOutcome['prop_warnings'][number];

/** The status's own headline: the same words as the account's page and the dashboard's widget. */
const describe = (warning: Warning): string => warning.headline;

/**
 * The import's success toast, with a warning when the import put a prop account near or past a limit
 * (one toast at a time, so both in one), each account linking to its status.
 */
export function notifyImported(outcome: ImportOutcome) {
  const title = `Trades imported successfully (${outcome.imported} trades have been imported)`;
  const warnings = outcome.prop_warnings;
  if (warnings.length === 0) {
    notifications.show({ message: title, color: 'teal' });
    return;
  }
  const broken = warnings.some((w) => w.state === 'broken');
  notifications.show({
    title,
    color: broken ? 'red' : 'yellow',
    autoClose: 12_000,
    message: (
      <Stack gap={2} data-testid="import-prop-warning">
        <Text size="sm">{broken ? 'A prop account is past a limit:' : 'A prop account is near a limit:'}</Text>
        {warnings.map((w) => (
          <Text key={w.account.id} size="sm">
            <Anchor component={Link} to={`/prop/${w.account.id}`} size="sm" fw={600} onClick={() => notifications.clean()}>
              {w.account.name}
            </Anchor>
            : {describe(w)}
          </Text>
        ))}
      </Stack>
    ),
  });
}
