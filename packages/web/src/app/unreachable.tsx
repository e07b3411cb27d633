import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ApiError, GATEWAY_DOWN, NetworkError } from '@/lib/api-client';
import { formatAgo, formatStamp } from '@/lib/format';
import { lastReached } from '@/lib/last-reached';

/** Tried again by itself this often while the screen shows, and when the device comes online. */
const RETRY_EVERY_MS = 15_000;

/** True for an error that means Berth did not answer (rather than answered no). */
export function isUnreachable(error: unknown): boolean {
  return (
    error instanceof NetworkError || (error instanceof ApiError && GATEWAY_DOWN.has(error.status))
  );
}

/**
 * What the app shows instead of a browser error when it opens (from the service worker's
 * cache, docs/decisions/035) but Berth does not answer: offline, off the LAN, or Berth down.
 */
export function Unreachable({ onRetry }: { onRetry: () => Promise<unknown> }) {
  const [since] = useState(lastReached);
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const retry = () => {
      setNow(Date.now());
      void onRetry();
    };
    const timer = setInterval(retry, RETRY_EVERY_MS);
    window.addEventListener('online', retry);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', retry);
    };
  }, [onRetry]);
  return (
    <main className="flex min-h-full items-center justify-center p-6" role="alert">
      <div className="max-w-sm space-y-4 text-center">
        <img src="/icons/icon-192.png" alt="" width={64} height={64} className="mx-auto" />
        <h1 className="text-xl font-semibold">Berth can&apos;t be reached</h1>
        <p className="text-sm text-slate-400">
          This device is offline, or Berth&apos;s server is down or out of reach from this network.
        </p>
        <p className="text-sm" data-testid="last-reached">
          {since === null ? (
            'Not reached from this device yet'
          ) : (
            <>
              Last reached <time dateTime={since}>{formatStamp(since)}</time> (
              {formatAgo(since, now)})
            </>
          )}
        </p>
        <Button size="touch" onClick={() => void onRetry()}>
          Try again
        </Button>
      </div>
    </main>
  );
}
