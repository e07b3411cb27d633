import type { Session } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { MonitorSmartphone } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { errorText } from '@/lib/api-client';
import { deviceOf } from '@/lib/user-agent';
import {
  ownSessionsQueryOptions,
  useEndOtherSessions,
  useEndOwnSession,
} from '../api/sessions-api';
import { SessionDeviceCell, SessionLastSeenCell, stamp } from './session-cells';
import { SettingsSection } from './setting-row';

/** Settings → Security: where the signed-in user is signed in, and signing out of those places. */
export function SessionsSection() {
  const list = useQuery(ownSessionsQueryOptions());
  const [confirming, setConfirming] = useState(false);
  const endOthers = useEndOtherSessions();
  const others = (list.data ?? []).filter((s) => !s.current).length;
  return (
    <SettingsSection title="Sessions">
      <p className="flex items-start gap-2 py-2 text-xs text-slate-400">
        <MonitorSmartphone className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden />
        <span>
          The browsers signed in to your account. Sign out any you do not recognise, then change
          your password.
        </span>
      </p>
      {list.isError ? (
        <p className="py-2 text-sm text-red-300">
          Failed to load sessions: {errorText(list.error)}
        </p>
      ) : list.data === undefined ? (
        <p className="py-2 text-sm text-slate-400">Loading…</p>
      ) : (
        <SessionsTable sessions={list.data} />
      )}
      <div className="py-3">
        <Button
          size="sm"
          variant="secondary"
          disabled={others === 0}
          onClick={() => setConfirming(true)}
        >
          Sign out everywhere
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Sign out everywhere"
        description={`Sign out ${others === 1 ? 'the 1 other session' : `all ${others} other sessions`}? Their browsers go back to the sign-in page. This device stays signed in.`}
        confirmLabel="Sign out everywhere"
        danger
        busy={endOthers.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          endOthers.mutate(undefined, {
            onSuccess: ({ ended }) => {
              toast.success(`Signed out ${ended} ${ended === 1 ? 'session' : 'sessions'}`);
              setConfirming(false);
            },
            onError: (err) => toast.error(`Failed to sign out: ${errorText(err)}`),
          })
        }
      />
    </SettingsSection>
  );
}

function SessionsTable({ sessions }: { sessions: Session[] }) {
  const end = useEndOwnSession();
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="sessions">
        <thead className="text-xs text-slate-500 uppercase">
          <tr>
            <th className="py-1 pr-3 font-medium">Device</th>
            <th className="py-1 pr-3 font-medium">Address</th>
            <th className="py-1 pr-3 font-medium">Signed in</th>
            <th className="py-1 pr-3 font-medium">Last seen</th>
            <th className="py-1 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.id} className="border-t border-slate-800" data-testid="session-row">
              <SessionDeviceCell session={s} className="py-2 pr-3 text-slate-100" />
              <td className="py-2 pr-3 text-slate-300">{s.address ?? '—'}</td>
              <td className="py-2 pr-3 text-slate-400">{stamp(s.created_at)}</td>
              <SessionLastSeenCell session={s} />
              <td className="py-2 text-right">
                {!s.current && (
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={`Sign out ${deviceOf(s.user_agent)} at ${s.address ?? 'unknown address'}`}
                    disabled={end.isPending}
                    onClick={() =>
                      end.mutate(s.id, {
                        onSuccess: () => toast.success(`Signed out ${deviceOf(s.user_agent)}`),
                        onError: (err) => toast.error(`Failed to sign out: ${errorText(err)}`),
                      })
                    }
                  >
                    Sign out
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
