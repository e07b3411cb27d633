import {
  ssoSettingsViewSchema,
  ssoTestResultSchema,
  type SsoSettingsUpdate,
  type SsoTestRequest,
} from '@berth/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const ssoSettingsQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'sso', 'settings'],
    queryFn: () => api('/v2/auth/sso/settings', ssoSettingsViewSchema),
  });

export function useSaveSso() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SsoSettingsUpdate) =>
      api('/v2/auth/sso/settings', ssoSettingsViewSchema, { method: 'PUT', body }),
    onSuccess: (data) => qc.setQueryData(ssoSettingsQueryOptions().queryKey, data),
  });
}

/** Discovery at an issuer, before it is saved. */
export function useTestSso() {
  return useMutation({
    mutationFn: (body: SsoTestRequest) =>
      api('/v2/auth/sso/test', ssoTestResultSchema, { method: 'POST', body }),
  });
}
