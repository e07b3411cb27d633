import {
  checkAllResponseSchema,
  registryCredentialSchema,
  updatePoliciesResponseSchema,
  type RegistryCredentialCreate,
  type RegistryCredentialUpdate,
  type UpdatePolicyCategory,
} from '@berth/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { updatesSummaryQueryOptions } from '@/lib/queries';

export const updatePoliciesQueryOptions = () =>
  queryOptions({
    queryKey: ['update-policies'],
    queryFn: () => api('/update-policies', updatePoliciesResponseSchema),
    staleTime: 5 * 60_000,
  });

export const registryCredentialsQueryOptions = () =>
  queryOptions({
    queryKey: ['registry-credentials'],
    queryFn: () => api('/registry-credentials', z.array(registryCredentialSchema)),
  });

function usePolicyMutation<V>(call: (v: V) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (data) => qc.setQueryData(updatePoliciesQueryOptions().queryKey, data as never),
  });
}

/** A category's switch moves at once and goes back when the server refuses. */
export function useToggleCategory() {
  const qc = useQueryClient();
  const key = updatePoliciesQueryOptions().queryKey;
  return useMutation({
    mutationFn: ({ category, enabled }: { category: UpdatePolicyCategory; enabled: boolean }) =>
      api(`/update-policies/${category}/toggle`, updatePoliciesResponseSchema, {
        method: 'PUT',
        params: { enabled: String(enabled) },
      }),
    onMutate: async ({ category, enabled }) => {
      await qc.cancelQueries({ queryKey: key });
      const previous = qc.getQueryData(key);
      if (previous !== undefined)
        qc.setQueryData(key, {
          categories: {
            ...previous.categories,
            [category]: previous.categories[category].map((p) => ({ ...p, enabled })),
          },
        });
      return { previous };
    },
    onError: (_err, _vars, ctx) => {
      if (ctx?.previous !== undefined) qc.setQueryData(key, ctx.previous);
    },
    onSuccess: (data) => qc.setQueryData(key, data),
  });
}

export const useAddPattern = () =>
  usePolicyMutation((pattern: string) =>
    api('/update-policies/custom', updatePoliciesResponseSchema, {
      method: 'POST',
      params: { pattern },
    }),
  );

export const useRemovePattern = () =>
  usePolicyMutation((id: number) =>
    api(`/update-policies/custom/${id}`, updatePoliciesResponseSchema, { method: 'DELETE' }),
  );

function useCredentialMutation<V>(call: (v: V) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => qc.invalidateQueries({ queryKey: registryCredentialsQueryOptions().queryKey }),
  });
}

export const useCreateCredential = () =>
  useCredentialMutation((body: RegistryCredentialCreate) =>
    api('/registry-credentials', registryCredentialSchema, { method: 'POST', body }),
  );

export const useUpdateCredential = () =>
  useCredentialMutation(({ id, body }: { id: number; body: RegistryCredentialUpdate }) =>
    api(`/registry-credentials/${id}`, registryCredentialSchema, { method: 'PUT', body }),
  );

export const useDeleteCredential = () =>
  useCredentialMutation((id: number) =>
    api(`/registry-credentials/${id}`, z.object({ message: z.string() }), { method: 'DELETE' }),
  );

export function useCheckAll() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api('/updates/check-all', checkAllResponseSchema, { method: 'POST', body: {} }),
    onSuccess: () => qc.invalidateQueries({ queryKey: updatesSummaryQueryOptions().queryKey }),
  });
}
