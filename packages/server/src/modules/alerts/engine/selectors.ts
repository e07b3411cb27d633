import type { AlertSelector, Container } from '@berth/contracts';
import type { StoredRule } from '../rules.store.js';

/** What a host selector needs to know of a host. */
export interface HostFacts {
  id: string;
  name: string;
  tags: readonly string[];
}

/** The container fields a container selector reads. */
export type ContainerFacts = Pick<Container, 'host_id' | 'name' | 'tags' | 'desired_state'>;

const anyTag = (wanted: readonly string[], tags: readonly string[]) =>
  wanted.some((t) => tags.includes(t));

/**
 * A selector matches when it includes all, or (tags given) any tag matches, or the subject
 * is picked by name or id. Tags replace individual picks, as in the form. No selector at
 * all means every subject: a rule without a choice watches everything.
 */
function picks(sel: AlertSelector | null, key: string, tags: readonly string[]): boolean {
  if (sel === null || sel.include_all) return true;
  if (sel.tags.length > 0) return anyTag(sel.tags, tags);
  return sel.include.includes(key);
}

/** Whether a host rule (or the host part of a container rule) watches this host. */
export function matchesHost(rule: StoredRule, host: HostFacts | undefined): boolean {
  if (host === undefined) return rule.host_selector_json === null;
  return picks(rule.host_selector_json, host.id, host.tags);
}

/**
 * Whether a container rule watches this container: its host passes the host selector (when
 * one is set), its name or tags pass the container selector, and should_run, when set,
 * keeps should_run (true) or on_demand (false) containers.
 */
export function matchesContainer(
  rule: StoredRule,
  c: ContainerFacts,
  host: HostFacts | undefined,
): boolean {
  if (rule.host_selector_json !== null && !matchesHost(rule, host)) return false;
  const sel = rule.container_selector_json;
  if (!picks(sel, c.name, c.tags)) return false;
  if (sel?.should_run === true) return c.desired_state === 'should_run';
  if (sel?.should_run === false) return c.desired_state === 'on_demand';
  return true;
}
