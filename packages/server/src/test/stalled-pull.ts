import type { ImagePullLine } from '@berth/contracts';
import { expect } from 'vitest';
import type { apiClient } from './api.js';
import { startHoldProxy } from './hold-proxy.js';
import { readRig } from './rig.js';
import type { TestApp } from './test-app.js';
import { waitFor } from './wait.js';

/**
 * Pulls `repoTag` (a repository of the rig's registry, its layer not on the engine) through a
 * proxy that holds the first blob download, so the pull stalls; cancels it through the API and
 * checks the answer and the audit say who, then lets the blob through: an engine that had not
 * given the pull up would finish it, and the image would appear. Answers the reference pulled.
 */
export async function cancelStalledPull(o: {
  t: TestApp;
  api: ReturnType<typeof apiClient>;
  cookie: string;
  hostId: string;
  /** Whether the engine has an image (the caller's docker CLI on the host's engine). */
  imageExists: (ref: string) => boolean;
  repoTag: string;
}): Promise<string> {
  const registryPort = Number(readRig().registry.split(':').at(-1));
  const proxy = await startHoldProxy(registryPort);
  const stalled = `127.0.0.1:${proxy.port}/${o.repoTag}`;
  try {
    const held = proxy.holdNext('/blobs/');
    const res = o.t.app.inject({
      method: 'POST',
      url: `/api/hosts/${o.hostId}/images/pull`,
      headers: { cookie: o.cookie },
      payload: { reference: stalled },
    });
    await held;
    expect(o.t.app.services.imagePulls.pullingOn(o.hostId)).toBe(true);
    const cancel = await o.api.post(`/hosts/${o.hostId}/images/pull/cancel`, {
      reference: stalled,
    });
    expect(cancel).toMatchObject({ status: 200, body: { ok: true } });
    const answer = await res;
    expect(answer.statusCode).toBe(200);
    const lines = answer.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ImagePullLine);
    const said = `The pull of ${stalled} was cancelled by admin`;
    expect(lines.at(-1)).toEqual({ type: 'error', detail: said });
    expect(o.t.app.services.imagePulls.pullingOn(o.hostId)).toBe(false);

    proxy.release();
    await new Promise((r) => setTimeout(r, 3000));
    expect(o.imageExists(stalled)).toBe(false);
    const audited = await waitFor(
      'cancel audited',
      async () => {
        const r = await o.api.get<{ entries: { target: string | null; error: string | null }[] }>(
          `/audit?action=image.pull&target=${encodeURIComponent(stalled)}`,
        );
        return r.body.entries.find((e) => e.target === `image ${stalled}`);
      },
      10_000,
    );
    expect(audited.error).toBe(said);
    return stalled;
  } finally {
    await proxy.close();
  }
}
