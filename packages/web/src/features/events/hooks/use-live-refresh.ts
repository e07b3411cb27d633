import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLiveMessages } from '@/lib/live/live-provider';
import { eventLogRootKey } from '../api/events-api';

/** At most one refresh per this long while events keep arriving (a bulk action's burst). */
const THROTTLE_MS = 2000;

/** Refreshes the Event Log when new events arrive over the live socket, throttled. */
export function useLiveRefresh(): void {
  const queryClient = useQueryClient();
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useLiveMessages('new_event', () => {
    if (timer.current !== undefined) return;
    const refresh = () => {
      timer.current = undefined;
      last.current = Date.now();
      void queryClient.invalidateQueries({ queryKey: eventLogRootKey() });
    };
    timer.current = setTimeout(refresh, Math.max(0, last.current + THROTTLE_MS - Date.now()));
  });
}
