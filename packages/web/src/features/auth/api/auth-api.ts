// Types only from contracts: the login screen is in the entry, its schemas load lazily
// (lib/session.ts).
import type {
  ChangePasswordRequest,
  LoginRequest,
  UpdateProfileRequest,
  User,
} from '@berth/contracts/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { authContracts, commonContracts, meQueryOptions } from '@/lib/session';

const loginResponseSchema = () => authContracts().then((c) => c.loginResponseSchema);
const okSchema = () => commonContracts().then((c) => c.okSchema);

const login = async (body: LoginRequest): Promise<User> =>
  (await api('/v2/auth/login', loginResponseSchema(), { method: 'POST', body })).user;

/** Signs in and primes the current-user cache with the answer. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (user) => queryClient.setQueryData(meQueryOptions().queryKey, user),
  });
}

/** Signs out and clears every cached query (logout clears all cached data). */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api('/v2/auth/logout', okSchema(), { method: 'POST' }),
    onSettled: () => {
      queryClient.clear();
      queryClient.setQueryData(meQueryOptions().queryKey, null);
    },
  });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangePasswordRequest) =>
      api('/v2/auth/change-password', okSchema(), { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
  });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateProfileRequest) =>
      (await api('/v2/auth/update-profile', loginResponseSchema(), { method: 'POST', body })).user,
    onSuccess: (user) => queryClient.setQueryData(meQueryOptions().queryKey, user),
  });
}
