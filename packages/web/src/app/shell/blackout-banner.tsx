import { MoonStar, X } from 'lucide-react';
import { useState } from 'react';
import { useLiveMessages } from '@/lib/live/live-provider';

/**
 * 'Blackout Window Active': shown while a blackout is active, hidden once dismissed,
 * shown again when a new blackout starts.
 */
export function BlackoutBanner() {
  const [active, setActive] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const update = (isActive: boolean) => {
    if (isActive && !active) setDismissed(false);
    setActive(isActive);
  };
  useLiveMessages('initial_state', (m) => update(m.data.blackout.is_active));
  useLiveMessages('blackout_status_changed', (m) => update(m.data.is_blackout));
  if (!active || dismissed) return null;
  return (
    <div
      role="status"
      className="flex items-center gap-3 border-b border-amber-900 bg-amber-950/70 px-6 py-2 text-sm text-amber-200 max-md:px-4"
    >
      <MoonStar className="h-4 w-4" aria-hidden />
      <span className="flex-1 font-medium">Blackout Window Active</span>
      <span className="hidden text-amber-300/80 sm:inline">
        Alert notifications are held back until it ends.
      </span>
      <button
        type="button"
        aria-label="Dismiss"
        onClick={() => setDismissed(true)}
        className="rounded p-1 hover:bg-amber-900 max-md:-my-2 max-md:-mr-2.5 max-md:p-3.5"
      >
        <X className="h-4 w-4" />
      </button>
    </div>
  );
}
