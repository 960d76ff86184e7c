import { PageHeader } from '../../components/page-header';

// Notebook (spec part 2): built by the notebook issue.
export function NotebookPage() {
  return <PageHeader title="Notebook" />;
}
