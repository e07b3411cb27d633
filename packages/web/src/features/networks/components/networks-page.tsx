import { PageHeader } from '@/components/page-header';
import { NetworksView } from './networks-view';

/** /networks: the fleet's networks, with a host filter, search, create and prune. */
export function NetworksPage() {
  return (
    <div data-testid="networks-page">
      <PageHeader title="Networks" subtitle="Networks on every host, and the containers on them" />
      <NetworksView />
    </div>
  );
}
