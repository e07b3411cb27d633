import { useQuery } from '@tanstack/react-query';
import { ScrollText } from 'lucide-react';
import { useState } from 'react';
import { EmptyState } from '@/components/empty-state';
import { LogViewer } from '@/components/log-viewer';
import { PageHeader } from '@/components/page-header';
import { useCanReadLogs } from '@/hooks/use-can';
import { containerKeyOf } from '@berth/contracts';
import { containersQueryOptions, hostsQueryOptions } from '@/lib/queries';
import { ContainerPicker, MAX_SELECTED } from './container-picker';

/** /logs: the merged logs of up to 15 containers. */
export function LogsPage() {
  const hosts = useQuery(hostsQueryOptions()).data;
  const containers = useQuery(containersQueryOptions()).data;
  const [selected, setSelected] = useState<string[]>([]);
  const [limitHit, setLimitHit] = useState(false);
  const canReadLogs = useCanReadLogs();

  const toggle = (key: string, on: boolean) => {
    if (on && selected.length >= MAX_SELECTED) {
      setLimitHit(true);
      return;
    }
    setLimitHit(false);
    setSelected((prev) => (on ? [...prev, key] : prev.filter((k) => k !== key)));
  };
  const sources = selected.flatMap((key) => {
    const c = containers?.find((x) => containerKeyOf(x) === key);
    return c === undefined ? [] : [{ hostId: c.host_id, containerId: c.id, name: c.name }];
  });

  return (
    <div className="flex h-full flex-col">
      <PageHeader
        title="Container Logs"
        subtitle="Follow the logs of up to 15 containers at once"
      />
      {!canReadLogs ? (
        <EmptyState
          icon={ScrollText}
          title="Viewers cannot read container logs here: an admin has not allowed it."
        />
      ) : hosts?.length === 0 ? (
        <EmptyState icon={ScrollText} title="No hosts available. Add hosts to see containers." />
      ) : containers?.length === 0 ? (
        <EmptyState
          icon={ScrollText}
          title="No containers available. Make sure your hosts have running containers."
        />
      ) : (
        // On a phone the picker sits above the logs, in a box of its own that scrolls.
        <div className="flex min-h-0 flex-1 gap-6 max-md:flex-col max-md:gap-4">
          <aside className="w-64 shrink-0 overflow-y-auto max-md:max-h-[35vh] max-md:w-full">
            {limitHit && (
              <p className="mb-2 text-xs text-amber-300">
                Maximum 15 containers can be selected at once
              </p>
            )}
            <ContainerPicker
              hosts={hosts ?? []}
              containers={containers ?? []}
              selected={selected}
              onToggle={toggle}
            />
          </aside>
          {sources.length === 0 ? (
            <div className="flex-1">
              <EmptyState icon={ScrollText} title="No containers selected" />
            </div>
          ) : (
            <LogViewer sources={sources} showNames />
          )}
        </div>
      )}
    </div>
  );
}
