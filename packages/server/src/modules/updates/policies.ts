import type { UpdatePolicyValue, UpdateValidation } from '@berth/contracts';
import type { PolicyRow } from './updates.store.js';

/** A label on the container that sets its policy, ahead of everything else. */
export const POLICY_LABEL = 'berth.update.policy';

/**
 * Whether an update may run: the container's label, then its own policy (allow, warn,
 * block), then the enabled global patterns (case-insensitive substring of the container
 * name or the image repository; a match warns). Berth itself is never updated by Berth.
 */
export function validateUpdate(args: {
  name: string;
  image: string;
  labels: Record<string, string>;
  policy: UpdatePolicyValue | null;
  patterns: PolicyRow[];
}): UpdateValidation | null {
  const label = args.labels[POLICY_LABEL]?.toLowerCase();
  if (label === 'block' || label === 'warn')
    return {
      result: label,
      reason: `Container label ${POLICY_LABEL}=${label}`,
      matched_pattern: null,
    };
  if (label === 'allow') return null;
  if (args.policy === 'block')
    return {
      result: 'block',
      reason: 'This container has a block policy that prevents updates',
      matched_pattern: null,
    };
  if (args.policy === 'warn')
    return {
      result: 'warn',
      reason: 'This container has a warn policy: confirm before updating',
      matched_pattern: null,
    };
  if (args.policy === 'allow') return null;
  const repo =
    args.image
      .split('@')[0]
      ?.replace(/:[^/:]*$/, '')
      .toLowerCase() ?? '';
  const name = args.name.toLowerCase();
  if (/(^|\/)berth(-server)?$/.test(repo))
    return { result: 'block', reason: 'Berth cannot update itself', matched_pattern: null };
  for (const p of args.patterns) {
    if (p.enabled !== 1) continue;
    const pattern = p.pattern.toLowerCase();
    if (name.includes(pattern) || repo.includes(pattern))
      return {
        result: 'warn',
        reason: `Matches the ${p.category} update policy`,
        matched_pattern: p.pattern,
      };
  }
  return null;
}
