import type { ReactNode } from 'react';
import { Sparkline } from '@/components/sparkline';

/** A titled block of a drawer or modal. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mb-6">
      <h3 className="mb-2 text-xs font-semibold tracking-wide text-slate-400 uppercase">{title}</h3>
      {children}
    </section>
  );
}

export function InfoRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[9rem_1fr] gap-2 py-1 text-sm">
      <dt className="text-slate-400">{label}</dt>
      <dd className="min-w-0 break-words text-slate-100">{children}</dd>
    </div>
  );
}

/** A figure with its recent history (drawers' Performance sections). */
export function PerfTile({
  label,
  value,
  values,
  max,
}: {
  label: string;
  value: string;
  values: number[];
  max?: number;
}) {
  return (
    <div>
      <div className="text-xs text-slate-400">{label}</div>
      <div className="text-sm text-slate-100 tabular-nums">{value}</div>
      <Sparkline
        values={values}
        color="#38bdf8"
        label={`${label} history`}
        {...(max === undefined ? {} : { max })}
      />
    </div>
  );
}
