import { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createEngineClient } from './index.js';

/**
 * A dialled connection (an agent's tunnel) whose answer arrives before its 'connect': Node
 * may hand over an HTTP/2 stream's first bytes before it emits the CONNECT's 'response'.
 */
class EarlyAnswerSocket extends Duplex {
  connecting = true;

  override _read(): void {}

  override _write(_chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    if (this.connecting) {
      this.push('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n');
      this.push('transfer-encoding: chunked\r\n\r\n');
      setTimeout(() => {
        this.connecting = false;
        this.emit('connect');
      }, 20);
    }
    done();
  }

  setKeepAlive(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setTimeout(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}

describe('a dialled engine connection that answers before it says it connected', () => {
  it('keeps a streaming answer open past the first-byte timeout', async () => {
    const socket = new EarlyAnswerSocket();
    const client = createEngineClient(
      { url: 'agent://early', dial: () => socket },
      { timeoutMs: 300 },
    );
    const stream = await client.getEvents({});
    let ended: string | null = null;
    stream.on('error', (err: Error) => (ended = err.message));
    stream.on('close', () => (ended ??= 'closed'));
    stream.resume();
    // Old guard: the first-byte timer was armed at the late 'connect' and cut the stream.
    await new Promise((r) => setTimeout(r, 900));
    expect(ended).toBeNull();
    socket.push('{"status":"start"}\n');
    socket.destroy();
  });
});
