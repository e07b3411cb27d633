import {
  executeUpdateResponseSchema,
  updateStatusSchema,
  type AutoUpdateConfigRequest,
  type Container,
  type UpdatePolicyValue,
  type UpdateStatus,
} from '@berth/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { containersQueryOptions, updatesSummaryQueryOptions } from '@/lib/queries';

const path = (c: Pick<Container, 'host_id' | 'id'>, suffix: string) =>
  `/hosts/${c.host_id}/containers/${c.id}/${suffix}`;

/** The cache key under which every update status of one host lives. */
export const hostUpdateStatusesKey = (hostId: string) => ['update-status', hostId] as const;

export const updateStatusQueryOptions = ({ host_id, id }: Pick<Container, 'host_id' | 'id'>) =>
  queryOptions({
    queryKey: [...hostUpdateStatusesKey(host_id), id],
    queryFn: () => api(path({ host_id, id }, 'update-status'), updateStatusSchema),
  });

/** Saves part of the update settings; the cached status changes at once and reverts on failure. */
export function useSaveUpdateConfig(c: Container) {
  const qc = useQueryClient();
  const key = updateStatusQueryOptions(c).queryKey;
  return useMutation({
    mutationFn: (body: AutoUpdateConfigRequest) =>
      api(path(c, 'auto-update-config'), updateStatusSchema, { method: 'PUT', body }),
    onMutate: async (body) => {
      await qc.cancelQueries({ queryKey: key });
      const previous = qc.getQueryData<UpdateStatus>(key);
      if (previous !== undefined) {
        const next = { ...previous };
        if (body.auto_update_enabled !== undefined)
          next.auto_update_enabled = body.auto_update_enabled;
        if (body.floating_tag_mode !== undefined) next.floating_tag_mode = body.floating_tag_mode;
        qc.setQueryData(key, next);
      }
      return { previous };
    },
    onError: (_err, _body, ctx) => {
      if (ctx?.previous !== undefined) qc.setQueryData(key, ctx.previous);
    },
    onSuccess: (status) => qc.setQueryData(key, status),
    onSettled: () => qc.invalidateQueries({ queryKey: containersQueryOptions().queryKey }),
  });
}

export function useSavePolicy(c: Container) {
  const qc = useQueryClient();
  const key = updateStatusQueryOptions(c).queryKey;
  return useMutation({
    mutationFn: (policy: UpdatePolicyValue | null) =>
      api(path(c, 'update-policy'), updateStatusSchema, {
        method: 'PUT',
        params: policy === null ? {} : { policy },
      }),
    onMutate: async (policy) => {
      await qc.cancelQueries({ queryKey: key });
      const previous = qc.getQueryData<UpdateStatus>(key);
      if (previous !== undefined) qc.setQueryData(key, { ...previous, update_policy: policy });
      return { previous };
    },
    onError: (_err, _p, ctx) => {
      if (ctx?.previous !== undefined) qc.setQueryData(key, ctx.previous);
    },
    onSuccess: (status) => qc.setQueryData(key, status),
  });
}

export function useCheckUpdate(c: Container) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api(path(c, 'check-update'), updateStatusSchema, { method: 'POST' }),
    onSuccess: (status) => {
      qc.setQueryData(updateStatusQueryOptions(c).queryKey, status);
      void qc.invalidateQueries({ queryKey: updatesSummaryQueryOptions().queryKey });
    },
  });
}

export function executeUpdate(c: Container, force: boolean) {
  return api(path(c, 'execute-update'), executeUpdateResponseSchema, {
    method: 'POST',
    params: force ? { force: 'true' } : {},
  });
}

export function rollbackUpdate(c: Container) {
  return api(path(c, 'rollback-update'), executeUpdateResponseSchema, { method: 'POST' });
}
