// The live channel as a client that does not opt in to Berth's delta protocol sees it (the
// spec's shapes: every containers_update carries every container; docs/decisions/015).
// Counts the bytes of its containers_update messages while `counting` is on.

/** A live socket without the opt-in, on Berth at `base` (http://host:port) with `cookie`. */
export function watchSpecLive(base: string, cookie: string) {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws/`, { headers: { cookie } });
  let counting = false;
  let since = 0;
  let bytes = 0;
  let messages = 0;
  ws.onmessage = (ev) => {
    const text = String(ev.data);
    if (!counting || !text.startsWith('{"type":"containers_update"')) return;
    bytes += Buffer.byteLength(text);
    messages++;
  };
  return {
    start() {
      counting = true;
      since = Date.now();
    },
    /** What arrived since `start`, as the sender wrote it (before permessage-deflate). */
    stop() {
      counting = false;
      const seconds = (Date.now() - since) / 1000;
      return { bytes, messages, seconds, kbPerSecond: bytes / 1024 / Math.max(0.001, seconds) };
    },
    close: () => ws.close(),
  };
}

export const specLiveLine = (r: ReturnType<ReturnType<typeof watchSpecLive>['stop']>) =>
  `default path (a client without the opt-in): ${r.kbPerSecond.toFixed(1)} KB/s, ${r.messages} containers_update in ${r.seconds.toFixed(1)} s, ${(r.bytes / Math.max(1, r.messages) / 1024).toFixed(1)} KB each`;
