import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ReleaseNotes } from './release-notes';

/**
 * What changed in a version. As the upgrade notice it welcomes the user to the
 * new version; from the sidebar's version it is simply the release notes.
 */
export function ReleaseNotesDialog({
  version,
  upgrade,
  onClose,
}: {
  version: string;
  upgrade: boolean;
  onClose: () => void;
}) {
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={upgrade ? `Welcome to Berth ${version}` : `Berth ${version} release notes`}
      {...(upgrade
        ? { description: 'Berth was upgraded. Here is what changed in this version.' }
        : {})}
      size="xl"
    >
      <ReleaseNotes version={version} />
      <div className="mt-5 flex justify-end">
        <Button onClick={onClose}>{upgrade ? 'Got it' : 'Close'}</Button>
      </div>
    </Dialog>
  );
}
