import type { ContainerSettingsRow } from './container-settings.store.js';

/** `compose:<project>` and `swarm:<service>` from labels. */
export function derivedTags(labels: Record<string, string>): string[] {
  const tags: string[] = [];
  const project = labels['com.docker.compose.project'];
  const service = labels['com.docker.swarm.service.name'];
  if (project) tags.push(`compose:${project.toLowerCase()}`);
  if (service) tags.push(`swarm:${service.toLowerCase()}`);
  return tags;
}

/** A container's tags: the user's, then those its labels give, each once. */
export function containerTags(
  settings: ContainerSettingsRow | undefined,
  labels: Record<string, string>,
): string[] {
  const userTags = settings ? (JSON.parse(settings.tags) as string[]) : [];
  return [...new Set([...userTags, ...derivedTags(labels)])];
}
