import type { Container, Host } from '@berth/contracts';
import { containerKeyOf } from '@berth/contracts';

export const MAX_SELECTED = 15;

/** Containers grouped by host, each with a checkbox; at most 15 may be chosen. */
export function ContainerPicker({
  hosts,
  containers,
  selected,
  onToggle,
}: {
  hosts: Host[];
  containers: Container[];
  selected: string[];
  onToggle: (key: string, on: boolean) => void;
}) {
  return (
    <div className="space-y-4" data-testid="container-picker">
      {hosts.map((host) => {
        const mine = containers.filter((c) => c.host_id === host.id);
        if (mine.length === 0) return null;
        return (
          <section key={host.id}>
            <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-400 uppercase">
              {host.name}
            </h3>
            {mine.map((c) => {
              const key = containerKeyOf(c);
              return (
                <label
                  key={key}
                  className="flex items-center gap-2 rounded px-1 py-1 text-sm text-slate-200 hover:bg-slate-800 max-md:min-h-11"
                >
                  <input
                    type="checkbox"
                    checked={selected.includes(key)}
                    onChange={(e) => onToggle(key, e.target.checked)}
                  />
                  <span className="min-w-0 truncate">{c.name}</span>
                  <span className="ml-auto shrink-0 text-xs text-slate-500">{c.state}</span>
                </label>
              );
            })}
          </section>
        );
      })}
    </div>
  );
}
