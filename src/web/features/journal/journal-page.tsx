import { PageHeader } from '../../components/page-header';

// Daily journal (spec part 2): built by the journal issue.
export function JournalPage() {
  return <PageHeader title="Daily Journal" />;
}
