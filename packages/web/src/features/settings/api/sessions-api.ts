import {
  allSessionsResponseSchema,
  endedSessionsSchema,
  okSchema,
  sessionsResponseSchema,
} from '@berth/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The signed-in user's own sessions (Settings → Security). */
export const ownSessionsQueryOptions = () =>
  queryOptions({
    queryKey: ['sessions', 'own'],
    queryFn: async () => (await api('/v2/auth/sessions', sessionsResponseSchema)).sessions,
    staleTime: 10_000,
  });

/** Every user's sessions (Settings → Users, admins). */
export const allSessionsQueryOptions = () =>
  queryOptions({
    queryKey: ['sessions', 'all'],
    queryFn: async () => (await api('/sessions', allSessionsResponseSchema)).sessions,
    staleTime: 10_000,
  });

function useSessionsMutation<V, R>(call: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: ownSessionsQueryOptions().queryKey }),
        qc.invalidateQueries({ queryKey: allSessionsQueryOptions().queryKey }),
      ]),
  });
}

const encoded = (id: string) => encodeURIComponent(id);

export const useEndOwnSession = () =>
  useSessionsMutation((id: string) =>
    api(`/v2/auth/sessions/${encoded(id)}`, okSchema, { method: 'DELETE' }),
  );

/** Every session but this one. */
export const useEndOtherSessions = () =>
  useSessionsMutation(() =>
    api('/v2/auth/sessions/end-others', endedSessionsSchema, { method: 'POST', body: {} }),
  );

export const useEndAnySession = () =>
  useSessionsMutation((id: string) =>
    api(`/sessions/${encoded(id)}`, okSchema, { method: 'DELETE' }),
  );
