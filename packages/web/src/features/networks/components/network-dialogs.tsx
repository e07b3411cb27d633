import { networkCreateSchema, type Network, type ResourcePruneResult } from '@berth/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { HostPicker } from '@/components/host-picker';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormFooter } from '@/components/ui/form-footer';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { errorText } from '@/lib/api-client';
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

type HostChoice = { id: string; name: string };

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
    <Dialog open onOpenChange={(o) => !o && onClose()} title={network.name} size="xl">
      <div className="max-h-[70vh] space-y-4 overflow-y-auto text-sm" data-testid="network-details">
        <dl className="grid grid-cols-[8rem_1fr] gap-1 max-md:grid-cols-1">
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
        </dl>
        {details.error !== null && (
          <p role="alert" className="text-red-400">
            {errorText(details.error)}
          </p>
        )}
        {details.data !== undefined && (
          <pre className="overflow-x-auto rounded-md bg-slate-950 p-3 font-mono text-xs text-slate-300">
            {JSON.stringify(details.data.raw, null, 2)}
          </pre>
        )}
      </div>
    </Dialog>
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
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: () => removeNetwork(network.host_id, network.id),
    onSuccess: () => {
      toast.success(`Network ${network.name} removed`);
      void client.invalidateQueries({ queryKey: NETWORKS_KEY });
      onClose();
    },
  });
  const users = network.in_use_by;
  return (
    <ConfirmDialog
      open
      title="Remove network?"
      description={`${network.name} on ${network.host_name}.`}
      confirmLabel="Remove"
      danger
      busy={remove.isPending}
      onConfirm={() => remove.mutate()}
      onCancel={onClose}
    >
      <div className="mb-4 space-y-2 text-sm">
        {users.length > 0 && (
          <div data-testid="network-users" className="rounded-md border border-amber-500/40 p-2">
            <p className="text-amber-300">Containers on it:</p>
            <ul className="list-disc pl-5 text-slate-200">
              {users.map((u) => (
                <li key={u.id}>
                  {u.name} <span className="text-slate-400">({u.state})</span>
                </li>
              ))}
            </ul>
          </div>
        )}
        {remove.error !== null && (
          <p role="alert" data-testid="remove-error" className="text-red-400">
            {errorText(remove.error)}
          </p>
        )}
      </div>
    </ConfirmDialog>
  );
}

/** Prune unused networks: the dry run's names and count first, then only those. */
export function PruneNetworksDialog({
  hosts,
  hostId: fixedHost,
  onClose,
}: {
  hosts: HostChoice[];
  hostId: string | null;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const [hostId, setHostId] = useState(fixedHost ?? hosts[0]?.id ?? '');
  const preview = useQuery({
    ...networkPrunePreviewQueryOptions(hostId),
    enabled: hostId !== '',
  });
  const [done, setDone] = useState<ResourcePruneResult | null>(null);
  const networks = preview.data?.networks ?? [];
  const prune = useMutation({
    mutationFn: () =>
      pruneNetworks(
        hostId,
        networks.map((n) => n.id),
      ),
    onSuccess: (answer) => {
      setDone(answer);
      void client.invalidateQueries({ queryKey: NETWORKS_KEY });
    },
  });
  const count = networks.length;
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title="Prune unused networks">
      <div className="space-y-4 text-sm" data-testid="prune-dialog">
        {fixedHost === null && done === null && (
          <HostPicker hosts={hosts} value={hostId} onChange={setHostId} />
        )}
        {done !== null ? (
          <div data-testid="prune-result" className="space-y-1 text-slate-200">
            <p>
              Removed {done.removed.length} network{done.removed.length === 1 ? '' : 's'}.
            </p>
            {done.skipped.map((s) => (
              <p key={s.name} className="text-amber-300">
                Kept {s.name}: {s.reason}
              </p>
            ))}
          </div>
        ) : preview.isPending ? (
          <p className="text-slate-400">Counting unused networks…</p>
        ) : preview.error !== null ? (
          <p role="alert" className="text-red-400">
            {errorText(preview.error)}
          </p>
        ) : (
          <>
            <p data-testid="prune-preview" className="text-slate-200">
              {count === 0
                ? 'No unused networks to remove.'
                : `${count} unused network${count === 1 ? '' : 's'}. Built-in networks and those a container names (stopped ones too) are kept.`}
            </p>
            {count > 0 && (
              <ul className="max-h-40 list-disc overflow-y-auto pl-5 text-slate-300">
                {networks.map((n) => (
                  <li key={n.id}>{n.name}</li>
                ))}
              </ul>
            )}
          </>
        )}
        {prune.error !== null && (
          <p role="alert" className="text-red-400">
            {errorText(prune.error)}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {done === null ? 'Cancel' : 'Close'}
          </Button>
          {done === null && (
            <Button
              variant="danger"
              disabled={prune.isPending || count === 0}
              onClick={() => prune.mutate()}
            >
              {prune.isPending ? 'Pruning…' : `Prune ${count}`}
            </Button>
          )}
        </div>
      </div>
    </Dialog>
  );
}

const TEXTAREA =
  'w-full rounded-md border border-slate-700 bg-slate-900 px-3 py-2 font-mono text-sm text-slate-100';

/**
 * Create a network: name, driver, subnet and gateway (checked here with the server's own
 * schema, so a gateway outside its subnet is named before anything is sent), internal,
 * attachable, labels.
 */
export function CreateNetworkDialog({
  hosts,
  hostId: fixedHost,
  onClose,
}: {
  hosts: HostChoice[];
  hostId: string | null;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const [hostId, setHostId] = useState(fixedHost ?? hosts[0]?.id ?? '');
  const [name, setName] = useState('');
  const [driver, setDriver] = useState('bridge');
  const [subnet, setSubnet] = useState('');
  const [gateway, setGateway] = useState('');
  const [internal, setInternal] = useState(false);
  const [attachable, setAttachable] = useState(false);
  const [labels, setLabels] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: Parameters<typeof createNetwork>[1]) => createNetwork(hostId, body),
    onSuccess: (made) => {
      toast.success(`Network ${made.name} created`);
      void client.invalidateQueries({ queryKey: NETWORKS_KEY });
      onClose();
    },
  });
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
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
    if (issue !== undefined) {
      setInvalid(`${issue.path.join('.') || 'form'}: ${issue.message}`);
      return;
    }
    setInvalid(null);
    create.mutate(body);
  };
  const error = invalid ?? (create.error === null ? null : errorText(create.error));
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title="Create network">
      <form className="space-y-3 text-sm" onSubmit={submit} data-testid="create-network">
        {fixedHost === null && <HostPicker hosts={hosts} value={hostId} onChange={setHostId} />}
        <label className="flex flex-col gap-1 text-slate-300">
          Name
          <Input aria-label="Name" value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="flex flex-col gap-1 text-slate-300">
          Driver
          <Input
            aria-label="Driver"
            list="network-drivers"
            value={driver}
            onChange={(e) => setDriver(e.target.value)}
          />
          <datalist id="network-drivers">
            <option value="bridge" />
            <option value="overlay" />
            <option value="macvlan" />
            <option value="ipvlan" />
          </datalist>
        </label>
        <div className="grid grid-cols-2 gap-2 max-md:grid-cols-1">
          <label className="flex flex-col gap-1 text-slate-300">
            Subnet
            <Input
              aria-label="Subnet"
              placeholder="172.30.0.0/16"
              value={subnet}
              onChange={(e) => setSubnet(e.target.value)}
            />
          </label>
          <label className="flex flex-col gap-1 text-slate-300">
            Gateway
            <Input
              aria-label="Gateway"
              placeholder="172.30.0.1"
              value={gateway}
              onChange={(e) => setGateway(e.target.value)}
            />
          </label>
        </div>
        <div className="flex flex-wrap gap-4 text-slate-300">
          <Switch label="Internal" checked={internal} onCheckedChange={setInternal}>
            Internal (no outside access)
          </Switch>
          <Switch label="Attachable" checked={attachable} onCheckedChange={setAttachable}>
            Attachable
          </Switch>
        </div>
        <label className="flex flex-col gap-1 text-slate-300">
          Labels (key=value, one a line)
          <textarea
            aria-label="Labels"
            rows={2}
            className={TEXTAREA}
            value={labels}
            onChange={(e) => setLabels(e.target.value)}
          />
        </label>
        <FormFooter
          error={error}
          onCancel={onClose}
          submit={create.isPending ? 'Creating…' : 'Create'}
          pending={create.isPending || hostId === ''}
        />
      </form>
    </Dialog>
  );
}
