// Schemas load with their first request: the app shell reads the status on every start.
import type { DisableTwoFactorRequest, TwoFactorPolicy } from '@berth/contracts/two-factor';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const contracts = () => import('@berth/contracts/two-factor');
const okSchema = () => import('@berth/contracts/common').then((c) => c.okSchema);

export const twoFactorStatusQueryOptions = () =>
  queryOptions({
    queryKey: ['two-factor', 'status'],
    queryFn: () =>
      api(
        '/account/two-factor',
        contracts().then((c) => c.twoFactorStatusSchema),
      ),
  });

export const twoFactorPolicyQueryOptions = () =>
  queryOptions({
    queryKey: ['two-factor', 'policy'],
    queryFn: () =>
      api(
        '/settings/two-factor',
        contracts().then((c) => c.twoFactorPolicySchema),
      ),
  });

/** A mutation that refreshes what is known of two-factor afterwards (and the held screens). */
function useTwoFactorMutation<V, R>(call: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: async () => {
      await qc.invalidateQueries({ queryKey: twoFactorStatusQueryOptions().queryKey });
      await qc.invalidateQueries({ queryKey: twoFactorPolicyQueryOptions().queryKey });
    },
  });
}

/** A new pending secret with its QR code; nothing changes until a code confirms it. */
export const useStartEnrolment = () =>
  useMutation({
    mutationFn: () =>
      api(
        '/account/two-factor/enrol',
        contracts().then((c) => c.twoFactorEnrolmentSchema),
        { method: 'POST', body: {} },
      ),
  });

/** The answer holds the recovery codes: the only time they are ever sent. */
export const useConfirmEnrolment = () =>
  useTwoFactorMutation(
    async (code: string) =>
      (
        await api(
          '/account/two-factor/confirm',
          contracts().then((c) => c.recoveryCodesSchema),
          { method: 'POST', body: { code } },
        )
      ).recovery_codes,
  );

export const useRegenerateRecoveryCodes = () =>
  useTwoFactorMutation(
    async (code: string) =>
      (
        await api(
          '/account/two-factor/recovery-codes',
          contracts().then((c) => c.recoveryCodesSchema),
          { method: 'POST', body: { code } },
        )
      ).recovery_codes,
  );

export const useDisableTwoFactor = () =>
  useTwoFactorMutation((body: DisableTwoFactorRequest) =>
    api('/account/two-factor/disable', okSchema(), { method: 'POST', body }),
  );

export const useSetTwoFactorPolicy = () =>
  useTwoFactorMutation((body: TwoFactorPolicy) =>
    api(
      '/settings/two-factor',
      contracts().then((c) => c.twoFactorPolicySchema),
      { method: 'PUT', body },
    ),
  );

export const useResetUserTwoFactor = () =>
  useMutation({
    mutationFn: (id: number) =>
      api(`/users/${id}/reset-two-factor`, okSchema(), { method: 'POST', body: {} }),
  });
