import { PageHeader } from '../../components/page-header';

// Trade details /trade/{id} (spec part 2): built by the trade details issue.
export function TradeDetailsPage() {
  return <PageHeader title="Trade Details" />;
}
