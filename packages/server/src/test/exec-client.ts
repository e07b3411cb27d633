import {
  EXEC_PATH,
  execServerMessageSchema,
  type ExecClientMessage,
  type ExecServerMessage,
} from '@berth/contracts';
import WebSocket from 'ws';

/**
 * A browser stand-in on the container shell's socket: keeps the terminal's output as text
 * and every control message, and waits for either.
 */
export interface ExecClient {
  socket: WebSocket;
  messages: ExecServerMessage[];
  output: () => string;
  send: (message: ExecClientMessage) => void;
  /** Types a line as a browser would: key by key is not needed, the bytes are the same. */
  type: (text: string) => void;
  /** Resolves once the output (after `from`) contains `text`. */
  waitOutput: (text: string, timeoutMs?: number, from?: number) => Promise<void>;
  waitMessage: <T extends ExecServerMessage['type']>(
    type: T,
    timeoutMs?: number,
  ) => Promise<Extract<ExecServerMessage, { type: T }>>;
  closed: Promise<{ code: number }>;
}

export function openExecClient(
  base: string,
  cookie: string,
  hostId: string,
  containerId: string,
): Promise<ExecClient> {
  const url = `${base.replace(/^http/, 'ws')}${EXEC_PATH}?host=${encodeURIComponent(hostId)}&container=${encodeURIComponent(containerId)}`;
  const socket = new WebSocket(url, { headers: { cookie } });
  const messages: ExecServerMessage[] = [];
  let output = '';
  const listeners = new Set<() => void>();
  const poke = () => listeners.forEach((l) => l());
  socket.on('message', (raw: Buffer, isBinary: boolean) => {
    if (isBinary) output += raw.toString('utf8');
    else messages.push(execServerMessageSchema.parse(JSON.parse(raw.toString('utf8'))));
    poke();
  });
  const closed = new Promise<{ code: number }>((resolve) =>
    socket.once('close', (code: number) => {
      resolve({ code });
      poke();
    }),
  );
  const until = (what: string, ok: () => boolean, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      if (ok()) {
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(
          new Error(
            `timed out waiting for ${what}; output: ${JSON.stringify(output.slice(-500))}; messages: ${JSON.stringify(messages)}`,
          ),
        );
      }, timeoutMs);
      const check = () => {
        if (!ok()) return;
        clearTimeout(timer);
        listeners.delete(check);
        resolve();
      };
      listeners.add(check);
    });
  const client: ExecClient = {
    socket,
    messages,
    output: () => output,
    send: (message) => socket.send(JSON.stringify(message)),
    type: (text) => client.send({ type: 'input', data: text }),
    waitOutput: (text, timeoutMs = 10_000, from = 0) =>
      until(`output ${JSON.stringify(text)}`, () => output.indexOf(text, from) >= 0, timeoutMs),
    waitMessage: async (type, timeoutMs = 10_000) => {
      await until(`a ${type} message`, () => messages.some((m) => m.type === type), timeoutMs);
      return messages.find((m) => m.type === type) as never;
    },
    closed,
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(client));
    socket.once('error', reject);
  });
}
