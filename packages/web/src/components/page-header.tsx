import type { ReactNode } from 'react';

/** The heading block every screen starts with. */
export function PageHeader({
  title,
  subtitle,
  actions,
}: {
  title: string;
  subtitle?: string;
  actions?: ReactNode;
}) {
  return (
    <header className="mb-6 flex flex-wrap items-end justify-between gap-4">
      {/* A phone's top bar shows the title already: there it is for screen readers only, and
          takes no line of its own. */}
      <div className="max-md:contents">
        <h1 className="text-2xl font-semibold tracking-tight text-white max-md:sr-only">{title}</h1>
        {subtitle !== undefined && <p className="mt-1 text-sm text-slate-400">{subtitle}</p>}
      </div>
      {actions}
    </header>
  );
}
