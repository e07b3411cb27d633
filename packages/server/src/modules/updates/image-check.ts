import type Docker from 'dockerode';

export type ImageCheck =
  | { kind: 'checked'; updateAvailable: boolean; currentDigest: string; latestDigest: string }
  | { kind: 'local' };

/** The repository of an image reference: `127.0.0.1:5000/app:1.2` → `127.0.0.1:5000/app`. */
export function repositoryOf(ref: string): string {
  const name = ref.split('@')[0] ?? ref;
  const colon = name.lastIndexOf(':');
  return colon > name.lastIndexOf('/') ? name.slice(0, colon) : name;
}

/**
 * Compares the digest a container's image was pulled with to the one its registry holds now
 * for the same reference. The engine asks the registry (GET /distribution/{ref}/json), so
 * the engine's own registry settings and logins apply. An image that never came from a
 * registry (built or imported) has no digest to compare: `local`.
 */
export async function checkImage(
  docker: Docker,
  imageRef: string,
  imageId: string,
): Promise<ImageCheck> {
  const image = await docker.getImage(imageId).inspect();
  const repository = repositoryOf(imageRef);
  const pulled = image.RepoDigests.find((d) => d.startsWith(`${repository}@`))?.slice(
    repository.length + 1,
  );
  if (pulled === undefined) return { kind: 'local' };
  const latest = (await docker.getImage(imageRef).distribution()).Descriptor.digest;
  return {
    kind: 'checked',
    updateAvailable: latest !== pulled,
    currentDigest: pulled,
    latestDigest: latest,
  };
}
