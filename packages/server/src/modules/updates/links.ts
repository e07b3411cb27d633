import { parseImageRef } from './registry.js';

/** OCI labels that name where an image's source and documentation live. */
const SOURCE_LABELS = ['org.opencontainers.image.source', 'org.label-schema.vcs-url'];
const URL_LABELS = ['org.opencontainers.image.url', 'org.label-schema.url'];

const githubRepo = (url: string): string | null => {
  const m =
    /^(?:git\+)?https?:\/\/github\.com\/([^/\s]+)\/([^/\s#?]+?)(?:\.git)?(?:[/#?].*)?$/.exec(
      url.trim(),
    );
  return m === null ? null : `https://github.com/${m[1] ?? ''}/${m[2] ?? ''}`;
};

/**
 * The changelog an operator would open: the GitHub releases of the image's source (OCI
 * labels), or for images whose repository lives on GitHub (ghcr.io/owner/repo), that one.
 */
export function detectChangelog(image: string, labels: Record<string, string>): string | null {
  for (const key of SOURCE_LABELS) {
    const v = labels[key];
    const repo = v === undefined ? null : githubRepo(v);
    if (repo !== null) return `${repo}/releases`;
  }
  const ref = parseImageRef(image);
  if (ref.registry === 'ghcr.io') {
    const [owner, name] = ref.repository.split('/');
    if (owner !== undefined && name !== undefined)
      return `https://github.com/${owner}/${name}/releases`;
  }
  if (ref.registry === 'lscr.io' && ref.repository.startsWith('linuxserver/'))
    return `https://github.com/linuxserver/docker-${ref.repository.slice(12)}/releases`;
  for (const key of URL_LABELS) {
    const v = labels[key];
    const repo = v === undefined ? null : githubRepo(v);
    if (repo !== null) return `${repo}/releases`;
  }
  return null;
}

/** The registry page of the image, for the well-known registries. */
export function detectRegistryPage(image: string): string | null {
  const ref = parseImageRef(image);
  switch (ref.registry) {
    case 'docker.io':
      return ref.repository.startsWith('library/')
        ? `https://hub.docker.com/_/${ref.repository.slice(8)}`
        : `https://hub.docker.com/r/${ref.repository}`;
    case 'ghcr.io': {
      const [owner, ...rest] = ref.repository.split('/');
      return `https://github.com/${owner ?? ''}/${rest.join('/')}/pkgs/container/${rest.join('%2F')}`;
    }
    case 'quay.io':
      return `https://quay.io/repository/${ref.repository}`;
    case 'lscr.io':
      return `https://fleet.linuxserver.io/image?name=${ref.repository}`;
    case 'gcr.io':
      return `https://gcr.io/${ref.repository}`;
    case 'registry.gitlab.com':
      return `https://gitlab.com/${ref.repository}/container_registry`;
    default:
      return null;
  }
}
