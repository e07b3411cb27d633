import type { Container } from '@berth/contracts';
import { Play, RotateCw, Square } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { useCan } from '@/hooks/use-can';
import { usePhone } from '@/hooks/use-breakpoint';
import { useContainerAction } from '@/lib/container-actions';
import { useUpdateRunning } from '../lib/update-running';

type Power = 'start' | 'stop' | 'restart';
const PENDING_TEXT: Record<Power, string> = {
  start: 'Container starting...',
  stop: 'Container stopping...',
  restart: 'Container restarting...',
};

/**
 * Start, or Stop and Restart, for one container. The detail dialog keeps Restart in place
 * (disabled unless running); the drawer shows only what applies and says what it started
 * (a toast per action). While an update of the container runs, all of them wait.
 */
export function PowerButtons({
  container: c,
  variant,
}: {
  container: Container;
  variant: 'dialog' | 'drawer';
}) {
  const action = useContainerAction();
  const running = c.state === 'running';
  const updating = useUpdateRunning(c);
  const canOperate = useCan('operate');
  const phone = usePhone();
  const busy = action.isPending || updating || !canOperate;
  const act = (name: Power) => {
    if (variant === 'drawer') toast.info(PENDING_TEXT[name]);
    action.mutate({ hostId: c.host_id, containerId: c.id, action: name });
  };
  const button = (name: Power, label: string, Icon: typeof Play, disabled = false) => (
    <Button
      size={phone ? 'touch' : 'sm'}
      variant="secondary"
      disabled={busy || disabled}
      title={
        !canOperate
          ? 'Your role can only view'
          : updating
            ? 'Container is being updated'
            : undefined
      }
      onClick={() => act(name)}
    >
      <Icon className="h-4 w-4" /> {label}
    </Button>
  );
  return (
    <>
      {running ? button('stop', 'Stop', Square) : button('start', 'Start', Play)}
      {(running || variant === 'dialog') && button('restart', 'Restart', RotateCw, !running)}
    </>
  );
}
