import { Suspense } from 'react';
import { useNavigate } from 'react-router';
import { useLogout } from '@/features/auth';
import { ForcedTwoFactorEnrolment } from '@/features/settings/two-factor';
import { paths } from '../paths';

/** The forced two-factor enrolment, with signing out as its only other way out. */
export function TwoFactorHoldDialog({ onDone }: { onDone: () => void }) {
  const logout = useLogout();
  const navigate = useNavigate();
  const signOut = () =>
    logout.mutate(undefined, { onSettled: () => void navigate(paths.login, { replace: true }) });
  return (
    <Suspense fallback={null}>
      <ForcedTwoFactorEnrolment onDone={onDone} onSignOut={signOut} />
    </Suspense>
  );
}
