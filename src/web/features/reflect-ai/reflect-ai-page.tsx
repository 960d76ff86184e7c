import { PageHeader } from '../../components/page-header';

// ReflectAI chat (spec part 2): built by the chat issue.
export function ReflectAiPage() {
  return <PageHeader title="ReflectAI" />;
}
