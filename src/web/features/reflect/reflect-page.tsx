import { PageHeader } from '../../components/page-header';

// Trade Reflections (spec part 2): built by the reflections issue; ?action=analyze starts AI analysis.
export function ReflectPage() {
  return <PageHeader title="Trade Reflections" />;
}
