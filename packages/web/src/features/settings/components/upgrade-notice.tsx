import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { upgradeNoticeQueryOptions, useDismissUpgradeNotice } from '../api/settings-api';

// The changelog travels with the dialog's chunk, loaded only when there is something to show.
const ReleaseNotesDialog = lazy(async () => ({
  default: (await import('./release-notes-dialog')).ReleaseNotesDialog,
}));

/** After an upgrade, what changed in this version; dismissed on close. */
export function UpgradeNotice({ enabled }: { enabled: boolean }) {
  const notice = useQuery({ ...upgradeNoticeQueryOptions(), enabled }).data;
  const dismiss = useDismissUpgradeNotice();
  if (notice?.show_notice !== true) return null;
  return (
    <Suspense fallback={null}>
      <ReleaseNotesDialog version={notice.version} upgrade onClose={() => dismiss.mutate()} />
    </Suspense>
  );
}
