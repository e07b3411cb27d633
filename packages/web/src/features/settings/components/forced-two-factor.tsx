import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { TwoFactorEnrol } from './two-factor-enrol';

/**
 * Shown instead of every screen while the user's role requires two-factor sign-in and they
 * have not set it up (the server refuses everything else meanwhile). Like the first-login
 * password change, it cannot be closed; signing out is the way out.
 */
export default function ForcedTwoFactorEnrolment({
  onDone,
  onSignOut,
}: {
  onDone: () => void;
  onSignOut: () => void;
}) {
  return (
    <Dialog
      open
      forced
      onOpenChange={() => undefined}
      title="Set up two-factor sign-in"
      description="Your role requires two-factor sign-in. Set it up to continue."
    >
      <TwoFactorEnrol onDone={onDone} />
      <div className="mt-4 border-t border-slate-800 pt-3 text-right">
        <Button size="sm" variant="secondary" onClick={onSignOut}>
          Sign out
        </Button>
      </div>
    </Dialog>
  );
}
