import { useEffect, useRef } from 'react';
import { useSettings, useUpdateSettings } from '../api/settings-api';

/** Minutes east of UTC, as the server stores timezone_offset. */
export function browserTimezoneOffset(): number {
  return -new Date().getTimezoneOffset();
}

/**
 * After sign-in, compares the browser's offset with the stored timezone_offset and saves it
 * when it differs; blackout windows are evaluated with it. Failures are only
 * logged; the next page load tries again.
 */
export function useTimezoneSync(enabled: boolean) {
  const settings = useSettings(enabled).data;
  const update = useUpdateSettings();
  const tried = useRef(false);
  useEffect(() => {
    if (!enabled || settings === undefined || tried.current) return;
    const offset = browserTimezoneOffset();
    tried.current = true;
    if (settings.timezone_offset === offset) return;
    update.mutate(
      { timezone_offset: offset },
      { onError: (err) => console.error('Saving the timezone offset failed', err) },
    );
  }, [enabled, settings, update]);
}
