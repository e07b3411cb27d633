import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { cn } from '@/lib/cn';
import { healthQueryOptions } from '@/lib/queries';

const ReleaseNotesDialog = lazy(async () => ({
  default: (await import('./release-notes-dialog')).ReleaseNotesDialog,
}));

/** The product version in the sidebar; it opens the release notes of the running version. */
export function VersionLink({ collapsed, enabled }: { collapsed: boolean; enabled: boolean }) {
  const version = useQuery({ ...healthQueryOptions(), enabled }).data?.version;
  const [open, setOpen] = useState(false);
  if (version === undefined) return null;
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        title="Release notes"
        aria-label={`Berth ${version} release notes`}
        className={cn(
          'block w-full rounded py-1 text-xs text-slate-500 hover:text-slate-300',
          collapsed ? 'px-0 text-center' : 'px-3 text-left',
        )}
      >
        v{version}
      </button>
      {open && (
        <Suspense fallback={null}>
          <ReleaseNotesDialog version={version} upgrade={false} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
