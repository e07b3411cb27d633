import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState, type ReactNode, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { HostPicker } from '@/components/host-picker';
import { Dialog } from '@/components/ui/dialog';
import { FormFooter } from '@/components/ui/form-footer';
import { Input, type InputProps } from '@/components/ui/input';
import { errorText } from '@/lib/api-client';
import type { HostChoice } from './resource-view';

/** The host a fleet-wide dialog acts on: the tab's own, else the first until one is picked. */
export function useChosenHost(hosts: readonly HostChoice[], fixedHost: string | null) {
  return useState(fixedHost ?? hosts[0]?.id ?? '');
}

/**
 * A create form in a dialog: the host picker (fleet view only), the caller's fields, the error
 * and the buttons. `build` gives the body, or why the form is wrong (named before sending).
 */
export function CreateResourceDialog<B extends object>({
  noun,
  testId,
  hosts,
  hostId: fixedHost,
  build,
  create,
  queryKey,
  onClose,
  children,
}: {
  /** Capitalised: `Network`; the title and the toast use it. */
  noun: string;
  testId: string;
  hosts: HostChoice[];
  hostId: string | null;
  build: () => B | string;
  create: (hostId: string, body: B) => Promise<{ name: string }>;
  queryKey: QueryKey;
  onClose: () => void;
  children: ReactNode;
}) {
  const client = useQueryClient();
  const [hostId, setHostId] = useChosenHost(hosts, fixedHost);
  const [invalid, setInvalid] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (body: B) => create(hostId, body),
    onSuccess: (made) => {
      toast.success(`${noun} ${made.name} created`);
      void client.invalidateQueries({ queryKey });
      onClose();
    },
  });
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    const body = build();
    if (typeof body === 'string') {
      setInvalid(body);
      return;
    }
    setInvalid(null);
    mutation.mutate(body);
  };
  const error = invalid ?? (mutation.error === null ? null : errorText(mutation.error));
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={`Create ${noun.toLowerCase()}`}>
      <form className="space-y-3 text-sm" onSubmit={submit} data-testid={testId}>
        {fixedHost === null && <HostPicker hosts={hosts} value={hostId} onChange={setHostId} />}
        {children}
        <FormFooter
          error={error}
          onCancel={onClose}
          submit={mutation.isPending ? 'Creating…' : 'Create'}
          pending={mutation.isPending || hostId === ''}
        />
      </form>
    </Dialog>
  );
}

/** A labelled text input whose accessible name is its label; `children` go after it. */
export function TextField({
  label,
  onValue,
  children,
  ...input
}: Omit<InputProps, 'onChange' | 'aria-label'> & {
  label: string;
  onValue: (value: string) => void;
  children?: ReactNode;
}) {
  return (
    <label className="flex flex-col gap-1 text-slate-300">
      {label}
      <Input aria-label={label} onChange={(e) => onValue(e.target.value)} {...input} />
      {children}
    </label>
  );
}

const TEXTAREA =
  'w-full rounded-md border border-slate-700 bg-slate-900 px-3 py-2 font-mono text-sm text-slate-100';

/** Labels or driver options in a create form: `key=value`, one a line. */
export function KeyValuesField({
  label,
  name,
  value,
  onChange,
  placeholder,
}: {
  /** The field's accessible name, `Labels`; its caption adds the format. */
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
}) {
  return (
    <label className="flex flex-col gap-1 text-slate-300">
      {label}
      <textarea
        aria-label={name}
        rows={2}
        className={TEXTAREA}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}
