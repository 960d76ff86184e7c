import { Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { PageHeader } from '../../components/page-header';

/**
 * The dashboard's heading and, beside it, its toolbar. The page sent to a signed-in browser is drawn with this row
 * alone (src/web/prerender.tsx), so the heading paints where the app then draws it, before any script has run.
 */
export function DashboardTitleRow({ children }: { children?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
      <PageHeader title="Dashboard" />
      {children}
    </Group>
  );
}
