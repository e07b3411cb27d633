import type { Container } from '@berth/contracts';
import { ExternalLink, FileText, MoreVertical, Play, RotateCw, Square } from 'lucide-react';
import { useNavigate } from 'react-router';
import { ActionMenu, DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { useCanReadLogs } from '@/hooks/use-can';
import { useContainerAction } from '@/lib/container-actions';

/** Stop and Restart when running, otherwise Start; View Logs; Open WebUI. */
export function ContainerMenu({ container }: { container: Container }) {
  return (
    <ActionMenu
      label={`Actions for ${container.name}`}
      icon={<MoreVertical className="h-3.5 w-3.5" />}
      className="rounded p-1 text-slate-500 hover:bg-slate-800 hover:text-white max-md:-mr-1 max-md:p-[15px]"
    >
      <ContainerMenuItems container={container} />
    </ActionMenu>
  );
}

/**
 * The entries, with their hooks: mounted only while the menu is open, so a dashboard of a
 * thousand rows does not hold a thousand mutation observers. The action's toasts live in the
 * mutation's own options, so they still show after the closing menu unmounts this.
 */
function ContainerMenuItems({ container }: { container: Container }) {
  const action = useContainerAction();
  const navigate = useNavigate();
  const canReadLogs = useCanReadLogs();
  const run = (name: 'start' | 'stop' | 'restart') =>
    action.mutate({ hostId: container.host_id, containerId: container.id, action: name });
  return (
    <>
      {container.state === 'running' ? (
        <>
          <DropdownMenuItem onSelect={() => run('stop')}>
            <Square className="h-4 w-4" /> Stop
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => run('restart')}>
            <RotateCw className="h-4 w-4" /> Restart
          </DropdownMenuItem>
        </>
      ) : (
        <DropdownMenuItem onSelect={() => run('start')}>
          <Play className="h-4 w-4" /> Start
        </DropdownMenuItem>
      )}
      {canReadLogs && (
        <DropdownMenuItem
          onSelect={() =>
            void navigate(`/logs?hostId=${container.host_id}&containerId=${container.id}`)
          }
        >
          <FileText className="h-4 w-4" /> View Logs
        </DropdownMenuItem>
      )}
      {container.web_ui_url !== null && (
        <DropdownMenuItem
          onSelect={() => window.open(container.web_ui_url ?? '', '_blank', 'noopener')}
        >
          <ExternalLink className="h-4 w-4" /> Open WebUI
        </DropdownMenuItem>
      )}
    </>
  );
}
