import { queryOptions } from '@tanstack/react-query';
import { api, ApiError } from './api-client';

/**
 * The first screen's schemas, loaded beside its first request rather than before its first
 * paint: the entry holds neither zod nor a schema (docs/decisions/010, "first screen").
 */
export const authContracts = () => import('@berth/contracts/auth');
export const commonContracts = () => import('@berth/contracts/common');

/** The signed-in user, or null (not retried, cached 5 minutes). */
export const meQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'me'],
    // Signed out is an answer (null), not an error.
    queryFn: async () => {
      try {
        return (
          await api(
            '/v2/auth/me',
            authContracts().then((c) => c.loginResponseSchema),
          )
        ).user;
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return null;
        throw err;
      }
    },
    retry: false,
    staleTime: 5 * 60_000,
  });
