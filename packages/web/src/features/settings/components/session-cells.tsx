import type { Session } from '@berth/contracts';
import { formatAgo } from '@/lib/format';
import { deviceOf } from '@/lib/user-agent';

const METHODS: Record<Session['method'], string> = { password: 'Password', sso: 'Single sign-on' };

export const stamp = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A session's device (the full user agent on hover), "This device", and how it signed in. */
export function SessionDeviceCell({ session, className }: { session: Session; className: string }) {
  return (
    <td className={className}>
      <span title={session.user_agent ?? undefined}>{deviceOf(session.user_agent)}</span>
      {session.current && (
        <span className="ml-2 rounded bg-emerald-900/60 px-1.5 py-0.5 text-xs text-emerald-200">
          This device
        </span>
      )}
      <span className="block text-xs text-slate-500">{METHODS[session.method]}</span>
    </td>
  );
}

/** When the session was last used: "Now" for this one. */
export function SessionLastSeenCell({ session }: { session: Session }) {
  return (
    <td className="py-2 pr-3 text-slate-400" title={stamp(session.last_seen_at)}>
      {session.current ? 'Now' : formatAgo(session.last_seen_at)}
    </td>
  );
}
