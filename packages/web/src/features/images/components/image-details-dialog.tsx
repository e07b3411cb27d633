import type { Image } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { errorText } from '@/lib/api-client';
import { formatBytes } from '@/lib/format';
import { imageDetailsQueryOptions } from '../api/images-api';
import { imageName, usedByText } from './images-table';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[8rem_1fr] gap-2 max-md:grid-cols-1 max-md:gap-0">
      <dt className="text-slate-400">{label}</dt>
      <dd className="min-w-0 break-words text-slate-100">{children}</dd>
    </div>
  );
}

const list = (values: readonly string[] | null): string =>
  values === null || values.length === 0 ? '—' : values.join(' ');

/** An image's inspect answer and history, read-only. */
export function ImageDetailsDialog({ image, onClose }: { image: Image; onClose: () => void }) {
  const details = useQuery(imageDetailsQueryOptions(image.host_id, image.id));
  const d = details.data;
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={imageName(image)} size="5xl">
      <div className="max-h-[70vh] space-y-6 overflow-y-auto text-sm" data-testid="image-details">
        <dl className="space-y-1">
          <Field label="ID">
            <code className="text-xs">{image.id}</code>
          </Field>
          <Field label="Host">{image.host_name}</Field>
          <Field label="Size">{formatBytes(image.size)}</Field>
          <Field label="Created">{new Date(image.created).toLocaleString()}</Field>
          <Field label="Digests">{list(image.digests)}</Field>
          <Field label="In use by">{usedByText(image)}</Field>
          {d !== undefined && (
            <>
              <Field label="Platform">
                {d.os}/{d.architecture}
              </Field>
              {d.author !== '' && <Field label="Author">{d.author}</Field>}
              <Field label="Entrypoint">{list(d.config.entrypoint)}</Field>
              <Field label="Command">{list(d.config.cmd)}</Field>
              <Field label="Working dir">{d.config.working_dir || '—'}</Field>
              <Field label="User">{d.config.user || '—'}</Field>
              <Field label="Ports">{list(d.config.exposed_ports)}</Field>
              <Field label="Volumes">{list(d.config.volumes)}</Field>
              <Field label="Layers">{d.layers}</Field>
            </>
          )}
        </dl>
        {details.isPending && <p className="text-slate-400">Loading…</p>}
        {details.error !== null && (
          <p role="alert" className="text-red-400">
            {errorText(details.error)}
          </p>
        )}
        {d !== undefined && (
          <>
            <section>
              <h3 className="mb-1 font-medium text-white">Environment</h3>
              <ul className="space-y-0.5 font-mono text-xs text-slate-300">
                {d.config.env.length === 0 && <li>—</li>}
                {d.config.env.map((e) => (
                  <li key={e} className="break-all">
                    {e}
                  </li>
                ))}
              </ul>
            </section>
            <section>
              <h3 className="mb-1 font-medium text-white">Labels</h3>
              <ul className="space-y-0.5 font-mono text-xs text-slate-300">
                {Object.keys(d.config.labels).length === 0 && <li>—</li>}
                {Object.entries(d.config.labels).map(([k, v]) => (
                  <li key={k} className="break-all">
                    {k}={v}
                  </li>
                ))}
              </ul>
            </section>
            <section>
              <h3 className="mb-1 font-medium text-white">History</h3>
              <div className="overflow-x-auto">
                <table className="w-full text-left text-xs" data-testid="image-history">
                  <thead className="text-slate-400">
                    <tr>
                      <th className="py-1 pr-3">Created</th>
                      <th className="py-1 pr-3">Size</th>
                      <th className="py-1">Created by</th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-800 text-slate-300">
                    {d.history.map((h, i) => (
                      <tr key={i}>
                        <td className="py-1 pr-3 whitespace-nowrap">
                          {h.created === null ? '—' : new Date(h.created).toLocaleDateString()}
                        </td>
                        <td className="py-1 pr-3 whitespace-nowrap">{formatBytes(h.size)}</td>
                        <td className="py-1 font-mono break-all">{h.created_by}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          </>
        )}
      </div>
    </Dialog>
  );
}
