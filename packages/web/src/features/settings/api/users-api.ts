import {
  createdUserSchema,
  managedUserSchema,
  okSchema,
  oneTimePasswordSchema,
  tagsResponseSchema,
  usersResponseSchema,
  type CreateUserRequest,
  type UpdateUserRequest,
} from '@berth/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Every host tag in use (most used first), offered when limiting a user to hosts. */
export const hostTagsQueryOptions = () =>
  queryOptions({
    queryKey: ['hosts', 'tags', 'suggest', ''],
    queryFn: async () =>
      (await api('/hosts/tags/suggest', tagsResponseSchema, { params: { q: '', limit: 50 } })).tags,
    staleTime: 10_000,
  });

export const usersQueryOptions = () =>
  queryOptions({
    queryKey: ['users'],
    queryFn: async () => (await api('/users', usersResponseSchema)).users,
  });

function useUsersMutation<V, R>(call: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => qc.invalidateQueries({ queryKey: usersQueryOptions().queryKey }),
  });
}

/** The answer holds the one-time password: the only time it is ever sent. */
export const useCreateUser = () =>
  useUsersMutation((body: CreateUserRequest) =>
    api('/users', createdUserSchema, { method: 'POST', body }),
  );

export const useUpdateUser = () =>
  useUsersMutation(({ id, body }: { id: number; body: UpdateUserRequest }) =>
    api(`/users/${id}`, managedUserSchema, { method: 'PATCH', body }),
  );

export const useDeleteUser = () =>
  useUsersMutation((id: number) => api(`/users/${id}`, okSchema, { method: 'DELETE' }));

export const useResetUserPassword = () =>
  useUsersMutation((id: number) =>
    api(`/users/${id}/reset-password`, oneTimePasswordSchema, { method: 'POST', body: {} }),
  );

export const useEndUserSessions = () =>
  useUsersMutation((id: number) =>
    api(`/users/${id}/end-sessions`, okSchema, { method: 'POST', body: {} }),
  );
