import type { UserSession } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { MonitorSmartphone } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { errorText } from '@/lib/api-client';
import { deviceOf } from '@/lib/user-agent';
import { allSessionsQueryOptions, useEndAnySession } from '../api/sessions-api';
import { SessionDeviceCell, SessionLastSeenCell } from './session-cells';
import { SettingsSection } from './setting-row';

/** Settings → Users (admins): every user's sessions; an admin may end each. */
export function AllSessionsSection() {
  const list = useQuery(allSessionsQueryOptions());
  const [ending, setEnding] = useState<UserSession | null>(null);
  const end = useEndAnySession();
  return (
    <SettingsSection title="Sessions">
      <p className="flex items-start gap-2 py-2 text-xs text-slate-400">
        <MonitorSmartphone className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden />
        <span>
          Everyone signed in, most recently active first. Ending a session sends its browser back to
          the sign-in page at once.
        </span>
      </p>
      {list.isError ? (
        <p className="py-2 text-sm text-red-300">
          Failed to load sessions: {errorText(list.error)}
        </p>
      ) : list.data === undefined ? (
        <p className="py-2 text-sm text-slate-400">Loading…</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="all-sessions">
            <thead className="text-xs text-slate-500 uppercase">
              <tr>
                <th className="py-1 pr-3 font-medium">User</th>
                <th className="py-1 pr-3 font-medium">Device</th>
                <th className="py-1 pr-3 font-medium">Address</th>
                <th className="py-1 pr-3 font-medium">Last seen</th>
                <th className="py-1 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((s) => (
                <tr key={s.id} className="border-t border-slate-800" data-testid="all-session-row">
                  <td className="py-2 pr-3 text-slate-100">{s.username}</td>
                  <SessionDeviceCell session={s} className="py-2 pr-3 text-slate-300" />
                  <td className="py-2 pr-3 text-slate-300">{s.address ?? '—'}</td>
                  <SessionLastSeenCell session={s} />
                  <td className="py-2 text-right">
                    {!s.current && (
                      <Button
                        size="sm"
                        variant="secondary"
                        aria-label={`End ${s.username}'s session on ${deviceOf(s.user_agent)}`}
                        onClick={() => setEnding(s)}
                      >
                        End
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={ending !== null}
        title="End session"
        description={
          ending === null
            ? ''
            : `End ${ending.username}'s session on ${deviceOf(ending.user_agent)} (${ending.address ?? 'unknown address'})? They can sign in again.`
        }
        confirmLabel="End session"
        danger
        busy={end.isPending}
        onCancel={() => setEnding(null)}
        onConfirm={() => {
          if (ending === null) return;
          end.mutate(ending.id, {
            onSuccess: () => {
              toast.success(`Ended ${ending.username}'s session`);
              setEnding(null);
            },
            onError: (err) => toast.error(`Failed to end the session: ${errorText(err)}`),
          });
        }}
      />
    </SettingsSection>
  );
}
