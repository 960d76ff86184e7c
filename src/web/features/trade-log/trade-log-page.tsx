import { PageHeader } from '../../components/page-header';

// Trade Log (spec part 2 "Trade Log page"): built by the trade log issue.
export function TradeLogPage() {
  return <PageHeader title="Trade Log" />;
}
