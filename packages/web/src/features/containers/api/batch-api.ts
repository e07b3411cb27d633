import {
  batchCreatedSchema,
  batchJobSchema,
  type BatchJob,
  type BatchRequestInput,
} from '@berth/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useLiveMessages } from '@/lib/live/live-provider';

export const batchJobQueryOptions = (jobId: string) =>
  queryOptions({
    queryKey: ['batch', jobId],
    queryFn: () => api(`/batch/${jobId}`, batchJobSchema),
    // Live messages carry progress; polling is the safety net while the job runs.
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'completed' || status === 'failed' ? false : 2000;
    },
  });

export function useStartBatch() {
  return useMutation({
    mutationFn: (body: BatchRequestInput) =>
      api('/batch', batchCreatedSchema, { method: 'POST', body }),
  });
}

/** Merges batch_job_update and batch_item_update into the cached job as they arrive. */
export function useBatchLiveUpdates(jobId: string | null) {
  const queryClient = useQueryClient();
  useLiveMessages('batch_job_update', ({ data }) => {
    if (data.job_id !== jobId) return;
    queryClient.setQueryData<BatchJob>(batchJobQueryOptions(data.job_id).queryKey, (job) =>
      job === undefined ? job : { ...job, ...data },
    );
  });
  useLiveMessages('batch_item_update', ({ data }) => {
    if (data.job_id !== jobId) return;
    queryClient.setQueryData<BatchJob>(batchJobQueryOptions(data.job_id).queryKey, (job) =>
      job === undefined
        ? job
        : {
            ...job,
            items: job.items.map((item) => (item.id === data.id ? { ...item, ...data } : item)),
          },
    );
  });
}
