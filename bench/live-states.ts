// The live channel as Berth's browser opens it (protocol 2: containers_update as deltas,
// applied as the browser applies them), remembering when each container was first shown in
// its current state: how long an engine's change takes to reach a browser.
import {
  applyContainersUpdate,
  type ContainersUpdate,
  type LiveContainersState,
} from '@berth/contracts';
import type { BerthProcess } from './berth-process.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface LiveStates {
  opened: Promise<unknown>;
  /**
   * When (performance.now()) Berth's live channel showed container `id` of host `hostId` in
   * `state` at or after `after`, waiting up to `timeoutMs`; null if it did not.
   */
  seen: (
    hostId: string,
    id: string,
    state: string,
    after: number,
    timeoutMs?: number,
  ) => Promise<number | null>;
  close: () => void;
}

export function watchLiveStates(berth: BerthProcess): LiveStates {
  // Node's WebSocket takes headers beside the protocols, unlike a browser's.
  const ws = new WebSocket(`${berth.base.replace(/^http/, 'ws')}/ws/?protocol=2`, {
    headers: { cookie: berth.cookie },
  });
  let live: LiveContainersState | null = null;
  const states = new Map<string, { state: string; at: number }>();
  ws.onmessage = (ev) => {
    const text = String(ev.data);
    if (!text.startsWith('{"type":"containers_update"')) return;
    const at = performance.now();
    live = applyContainersUpdate(live, (JSON.parse(text) as { data: ContainersUpdate }).data);
    if (live === null) {
      ws.send(JSON.stringify({ type: 'containers_resync' }));
      return;
    }
    for (const c of live.containers) {
      const key = `${c.host_id}:${c.id}`;
      if (states.get(key)?.state !== c.state) states.set(key, { state: c.state, at });
    }
  };
  return {
    opened: new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    }),
    seen: async (hostId, id, state, after, timeoutMs = 10_000) => {
      const started = performance.now();
      while (performance.now() - started < timeoutMs) {
        const now = states.get(`${hostId}:${id}`);
        if (now?.state === state && now.at >= after) return now.at;
        await sleep(5);
      }
      return null;
    },
    close: () => ws.close(),
  };
}
