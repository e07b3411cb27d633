import type { Project } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { Dialog } from '@/components/ui/dialog';
import { errorText } from '@/lib/api-client';
import { composeFileQueryOptions } from '../api/projects-api';

const SOURCE_WORDS = { local: 'Read by Berth on this machine', agent: "Read by the host's agent" };

/** The project's compose files, read-only and monospace, or why they cannot be shown. */
export function ComposeFileDialog({ project, onClose }: { project: Project; onClose: () => void }) {
  const { data, error, isPending } = useQuery(composeFileQueryOptions(project));
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Compose file: ${project.name}`}
      {...(project.working_dir === null ? {} : { description: project.working_dir })}
      size="5xl"
    >
      <div data-testid="compose-file" className="max-h-[70vh] space-y-4 overflow-y-auto">
        {isPending && <p className="text-sm text-slate-400">Reading…</p>}
        {error !== null && <p className="text-sm text-red-300">{errorText(error)}</p>}
        {data?.reason != null && (
          <p data-testid="compose-file-reason" className="text-sm text-amber-300">
            {data.reason}
          </p>
        )}
        {data?.source !== undefined && data.source !== 'none' && (
          <p className="text-xs text-slate-500">{SOURCE_WORDS[data.source]}</p>
        )}
        {data?.files.map((f) => (
          <section key={f.path}>
            <h3 className="mb-1 font-mono text-xs break-all text-slate-400">{f.path}</h3>
            {f.error !== null && <p className="text-sm text-red-300">{f.error}</p>}
            {f.content !== null && (
              <pre
                data-testid="compose-file-content"
                className="overflow-x-auto rounded-md border border-slate-800 bg-slate-950 p-3 font-mono text-xs leading-relaxed text-slate-200"
              >
                {f.content}
              </pre>
            )}
          </section>
        ))}
      </div>
    </Dialog>
  );
}
