// What the app shell needs of two-factor sign-in, without loading the settings screen.
import { useQuery } from '@tanstack/react-query';
import { lazy, useState } from 'react';
import { twoFactorStatusQueryOptions } from './api/two-factor-api';

/** Loaded only for a user held to enrolment. */
export const ForcedTwoFactorEnrolment = lazy(() => import('./components/forced-two-factor'));

/**
 * Whether the signed-in user must set up two-factor before anything else (their role
 * requires it). Read beside the first screen, not before it: almost no one is held. Once
 * held, the hold lasts until `done` (after the recovery codes were shown), not only until
 * the server's status turns.
 */
export function useTwoFactorHold(signedIn: boolean): { held: boolean; done: () => void } {
  const status = useQuery({ ...twoFactorStatusQueryOptions(), enabled: signedIn });
  const required = signedIn && status.data?.enrolment_required === true;
  const [held, setHeld] = useState(false);
  if (required && !held) setHeld(true);
  return { held, done: () => setHeld(false) };
}
