import { ArrowUpCircle } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { errorText } from '@/lib/api-client';
import { useDismissUpdate, useSettings } from '../api/settings-api';

/**
 * The sidebar's card about a newer Berth: shown while the release feed knows a
 * newer version that was not dismissed; a dismissal holds for that version only.
 */
export function UpdateCard({ collapsed, enabled }: { collapsed: boolean; enabled: boolean }) {
  const settings = useSettings(enabled).data;
  const dismiss = useDismissUpdate();
  const version = settings?.latest_available_version ?? null;
  if (
    settings === undefined ||
    !settings.update_available ||
    version === null ||
    settings.dismissed_dockmon_update_version === version
  )
    return null;
  const url = settings.latest_release_url ?? undefined;

  if (collapsed)
    return (
      <a
        href={url}
        target="_blank"
        rel="noreferrer"
        title={`Berth ${version} is available`}
        aria-label={`Berth ${version} is available: see what's new`}
        className="flex justify-center rounded-md py-2 text-accent hover:bg-slate-800"
        data-testid="update-card"
      >
        <ArrowUpCircle className="h-4 w-4" aria-hidden />
      </a>
    );

  return (
    <div
      data-testid="update-card"
      role="status"
      className="mx-1 mb-1 rounded-lg border border-accent/40 bg-accent/10 p-3 text-xs"
    >
      <p className="flex items-center gap-1.5 font-medium text-white">
        <ArrowUpCircle className="h-4 w-4 shrink-0 text-accent" aria-hidden />
        Update available
      </p>
      <p className="mt-1 text-slate-300">Berth {version} is available.</p>
      <div className="mt-2 flex gap-2">
        <a
          href={url}
          target="_blank"
          rel="noreferrer"
          className="inline-flex h-7 items-center rounded-md bg-accent px-2.5 font-medium text-white hover:bg-accent-strong focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
        >
          See what's new
        </a>
        <Button
          variant="ghost"
          size="xs"
          disabled={dismiss.isPending}
          onClick={() =>
            dismiss.mutate(version, {
              onError: (err) =>
                toast.error('Failed to dismiss the update', { description: errorText(err) }),
            })
          }
        >
          Dismiss
        </Button>
      </div>
    </div>
  );
}
