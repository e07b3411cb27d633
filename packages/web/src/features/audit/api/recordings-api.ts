import { execRecordingListSchema, execRecordingSchema } from '@berth/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** A page of shell recordings, the newest first (admins only). */
export const execRecordingsQueryOptions = (limit: number, offset: number) =>
  queryOptions({
    queryKey: ['exec-recordings', limit, offset],
    queryFn: () => api('/exec/recordings', execRecordingListSchema, { params: { limit, offset } }),
    placeholderData: keepPreviousData,
  });

/** One recording with what was typed. */
export const execRecordingQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['exec-recording', id],
    queryFn: () => api(`/exec/recordings/${id}`, execRecordingSchema),
  });
