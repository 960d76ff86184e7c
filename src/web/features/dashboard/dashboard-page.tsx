import { PageHeader } from '../../components/page-header';

// Dashboard home (spec part 1 §2.4): widgets come with the dashboard issue.
export function DashboardPage() {
  return <PageHeader title="Dashboard" />;
}
