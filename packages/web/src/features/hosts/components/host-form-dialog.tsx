import type { Host } from '@berth/contracts';
import { useState, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Segmented } from '@/components/ui/segmented';
import { errorText } from '@/lib/api-client';
import { useCreateHost, useUpdateHost } from '../api/hosts-api';
import { AgentEnrollment } from './agent-enrollment';
import { CertificateField } from './certificate-field';
import { isAgentHost } from './connection';
import { TestConnection } from './test-connection';
import { toPayload, useHostForm, validate } from './use-host-form';

interface Props {
  /** null: add a host; otherwise edit it. */
  host: Host | null;
  onClose: () => void;
}

function Field({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error: string | undefined;
  children: React.ReactNode;
}) {
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      {children}
      {error !== undefined && <p className="mt-1 text-xs text-red-300">{error}</p>}
    </div>
  );
}

type AddMode = 'address' | 'agent';
const ADD_MODES: { value: AddMode; label: string }[] = [
  { value: 'address', label: 'Engine address' },
  { value: 'agent', label: 'Agent' },
];

/** Add a host (by its engine's address, or by enrolling an agent) or edit one. */
export function HostFormDialog({ host, onClose }: Props) {
  const [mode, setMode] = useState<AddMode>('address');
  const agentMode = host === null && mode === 'agent';
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={host === null ? 'Add Host' : 'Edit Host'}
      size={agentMode ? 'xl' : 'lg'}
      // The commands make it tall: on a short window it scrolls instead of leaving the screen.
      {...(agentMode ? { className: 'max-h-[calc(100vh-2rem)] overflow-y-auto' } : {})}
    >
      {host === null && (
        <div className="mb-4">
          <Segmented label="Connect through" value={mode} options={ADD_MODES} onChange={setMode} />
        </div>
      )}
      {agentMode ? (
        <AgentEnrollment onClose={onClose} />
      ) : (
        <HostForm host={host} onClose={onClose} />
      )}
    </Dialog>
  );
}

function HostForm({ host, onClose }: Props) {
  const { values, errors, setErrors, set } = useHostForm(host);
  const create = useCreateHost();
  const update = useUpdateHost();
  const storedSecure = host?.security_status === 'secure';
  const unix = values.url.trim().startsWith('unix://');
  // An agent host's address is its agent's id: shown, not edited, and no TLS of its own.
  const agent = host !== null && isAgentHost(host);

  const submit = async (e: SyntheticEvent) => {
    e.preventDefault();
    const found = validate(values);
    if (Object.keys(found).length > 0) {
      setErrors(found);
      return;
    }
    try {
      const saved =
        host === null
          ? await create.mutateAsync(toPayload(values))
          : await update.mutateAsync({ id: host.id, body: toPayload(values) });
      toast.success(`Host "${saved.name}" ${host === null ? 'added' : 'updated'} successfully`);
      onClose();
    } catch (err) {
      toast.error(errorText(err, host === null ? 'Failed to add host' : 'Failed to update host'));
    }
  };

  const text = (
    key: 'name' | 'url' | 'tags' | 'description',
    label: string,
    placeholder: string,
    readOnly = false,
  ) => (
    <Field id={`host-${key}`} label={label} error={errors[key]}>
      <Input
        id={`host-${key}`}
        value={values[key]}
        placeholder={placeholder}
        readOnly={readOnly}
        className={readOnly ? 'text-slate-400' : undefined}
        onChange={(e) => set(key, e.target.value)}
      />
    </Field>
  );

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
      {text('name', 'Name', 'production-1')}
      {text(
        'url',
        'Address/Endpoint',
        'tcp://192.0.2.10:2376 or unix:///var/run/docker.sock',
        agent,
      )}
      {text('tags', 'Tags', 'prod, dev, us-west-1')}
      {text('description', 'Description', 'Optional')}
      {agent ? (
        <p className="text-sm text-slate-400">
          Connected through its agent — the address cannot change
        </p>
      ) : unix ? (
        <p className="text-sm text-slate-400">Local UNIX socket — TLS not applicable</p>
      ) : (
        <label className="flex items-center gap-2 text-sm text-slate-300">
          <input
            type="checkbox"
            checked={values.mtls}
            onChange={(e) => set('mtls', e.target.checked)}
          />
          Use mutual TLS (mTLS)
        </label>
      )}
      {values.mtls && !unix && !agent && (
        <div className="space-y-3 rounded-lg border border-slate-800 p-3">
          <CertificateField
            label="CA Certificate"
            value={values.tls_ca}
            onChange={(v) => set('tls_ca', v)}
            stored={storedSecure}
          />
          <CertificateField
            label="Client Certificate"
            value={values.tls_cert}
            onChange={(v) => set('tls_cert', v)}
            stored={storedSecure}
          />
          <CertificateField
            label="Client Key"
            value={values.tls_key}
            onChange={(v) => set('tls_key', v)}
            stored={storedSecure}
          />
        </div>
      )}
      {errors.form !== undefined && <p className="text-sm text-red-300">{errors.form}</p>}
      <div className="flex items-end justify-between gap-2">
        <TestConnection values={values} storedSecure={storedSecure} />
        {/* A long connection error wraps beside the buttons, never the button labels. */}
        <div className="flex shrink-0 gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending || update.isPending}>
            {host === null ? 'Add Host' : 'Save Changes'}
          </Button>
        </div>
      </div>
    </form>
  );
}
