import { networkCreateSchema, type Network } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import {
  InspectDialog,
  PruneUnusedDialog,
  RemoveResourceDialog,
} from '@/components/resource-list/resource-dialogs';
import {
  CreateResourceDialog,
  KeyValuesField,
  TextField,
} from '@/components/resource-list/resource-form';
import type { HostDialogProps } from '@/components/resource-list/resource-view';
import { Switch } from '@/components/ui/switch';
import { parseKeyValues } from '@/lib/key-values';
import {
  createNetwork,
  NETWORKS_KEY,
  networkDetailsQueryOptions,
  networkPrunePreviewQueryOptions,
  pruneNetworks,
  removeNetwork,
} from '../api/networks-api';
import { subnetText } from './networks-table';

/** A network's inspect answer, read-only: the engine's JSON whole, after the main fields. */
export function NetworkDetailsDialog({
  network,
  onClose,
}: {
  network: Network;
  onClose: () => void;
}) {
  const details = useQuery(networkDetailsQueryOptions(network.host_id, network.id));
  return (
    <InspectDialog
      title={network.name}
      testId="network-details"
      error={details.error}
      raw={details.data?.raw}
      onClose={onClose}
      fields={
        <>
          <dt className="text-slate-400">Host</dt>
          <dd>{network.host_name}</dd>
          <dt className="text-slate-400">ID</dt>
          <dd className="break-all font-mono text-xs">{network.id}</dd>
          <dt className="text-slate-400">Driver / scope</dt>
          <dd>
            {network.driver} / {network.scope}
          </dd>
          <dt className="text-slate-400">Subnet</dt>
          <dd>{subnetText(network)}</dd>
          <dt className="text-slate-400">Containers</dt>
          <dd>
            {network.in_use_by.length === 0
              ? 'None (unused)'
              : network.in_use_by.map((d) => `${d.name} (${d.state})`).join(', ')}
          </dd>
        </>
      }
    />
  );
}

/**
 * Remove a network. The engine refuses one with running containers attached, in its words
 * (shown here); it has no force, so the containers are named for the user to disconnect.
 */
export function RemoveNetworkDialog({
  network,
  onClose,
}: {
  network: Network;
  onClose: () => void;
}) {
  return (
    <RemoveResourceDialog
      noun="network"
      users={network.in_use_by}
      usersTestId="network-users"
      usersHeading="Containers on it:"
      describe={() => `${network.name} on ${network.host_name}.`}
      canForce={false}
      remove={() => removeNetwork(network.host_id, network.id)}
      onRemoved={() => toast.success(`Network ${network.name} removed`)}
      queryKey={NETWORKS_KEY}
      onClose={onClose}
    />
  );
}

/** Prune unused networks: the dry run's names and count first, then only those. */
export function PruneNetworksDialog(host: HostDialogProps) {
  return (
    <PruneUnusedDialog
      noun="network"
      {...host}
      preview={networkPrunePreviewQueryOptions}
      found={(p) => p.networks.map((n) => ({ key: n.id, name: n.name }))}
      summary={(count) =>
        `${count} unused network${count === 1 ? '' : 's'}. Built-in networks and those a container names (stopped ones too) are kept.`
      }
      prune={pruneNetworks}
      freed={false}
      queryKey={NETWORKS_KEY}
    />
  );
}

/**
 * Create a network: name, driver, subnet and gateway (checked here with the server's own
 * schema, so a gateway outside its subnet is named before anything is sent), internal,
 * attachable, labels.
 */
export function CreateNetworkDialog({ hosts, hostId, onClose }: HostDialogProps) {
  const [name, setName] = useState('');
  const [driver, setDriver] = useState('bridge');
  const [subnet, setSubnet] = useState('');
  const [gateway, setGateway] = useState('');
  const [internal, setInternal] = useState(false);
  const [attachable, setAttachable] = useState(false);
  const [labels, setLabels] = useState('');
  const build = () => {
    const body = {
      name: name.trim(),
      driver: driver.trim(),
      subnet: subnet.trim(),
      gateway: gateway.trim(),
      internal,
      attachable,
      labels: parseKeyValues(labels),
    };
    const checked = networkCreateSchema.safeParse(body);
    const issue = checked.success ? undefined : checked.error.issues[0];
    return issue === undefined ? body : `${issue.path.join('.') || 'form'}: ${issue.message}`;
  };
  return (
    <CreateResourceDialog
      noun="Network"
      testId="create-network"
      hosts={hosts}
      hostId={hostId}
      build={build}
      create={createNetwork}
      queryKey={NETWORKS_KEY}
      onClose={onClose}
    >
      <TextField label="Name" value={name} onValue={setName} />
      <TextField label="Driver" list="network-drivers" value={driver} onValue={setDriver}>
        <datalist id="network-drivers">
          <option value="bridge" />
          <option value="overlay" />
          <option value="macvlan" />
          <option value="ipvlan" />
        </datalist>
      </TextField>
      <div className="grid grid-cols-2 gap-2 max-md:grid-cols-1">
        <TextField label="Subnet" placeholder="172.30.0.0/16" value={subnet} onValue={setSubnet} />
        <TextField label="Gateway" placeholder="172.30.0.1" value={gateway} onValue={setGateway} />
      </div>
      <div className="flex flex-wrap gap-4 text-slate-300">
        <Switch label="Internal" checked={internal} onCheckedChange={setInternal}>
          Internal (no outside access)
        </Switch>
        <Switch label="Attachable" checked={attachable} onCheckedChange={setAttachable}>
          Attachable
        </Switch>
      </div>
      <KeyValuesField
        label="Labels (key=value, one a line)"
        name="Labels"
        value={labels}
        onChange={setLabels}
      />
    </CreateResourceDialog>
  );
}
