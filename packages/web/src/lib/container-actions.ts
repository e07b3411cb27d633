import {
  CONTAINER_ACTION_DONE,
  containerActionResponseSchema,
  type ContainerAction,
} from '@berth/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { api } from './api-client';
import { containersQueryOptions } from './queries';

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export interface ContainerActionVars {
  hostId: string;
  containerId: string;
  action: ContainerAction;
}

/** Runs a container action with a success or failure toast, then refreshes the containers. */
export function useContainerAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ hostId, containerId, action }: ContainerActionVars) =>
      api(`/hosts/${hostId}/containers/${containerId}/${action}`, containerActionResponseSchema, {
        method: 'POST',
      }),
    onSuccess: (_res, { action }) => {
      toast.success(`Container ${CONTAINER_ACTION_DONE[action]} successfully`, {
        description: `Action: ${capitalised(action)}`,
      });
    },
    onError: (err, { action }) => {
      toast.error(`Failed to ${action} container`, {
        description: err instanceof Error && err.message !== '' ? err.message : 'Unknown error',
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: containersQueryOptions().queryKey }),
  });
}
