import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import {
  clampTerminalSize,
  type ExecEndReason,
  type ExecServerMessage,
  type ExecStart,
} from '@berth/contracts';
import type { Engine } from '../../docker/index.js';

/** The browser's end of a session, as the socket route gives it. */
export interface ExecPeer {
  send(message: ExecServerMessage): void;
  /** `done` runs once the bytes left for the browser (the pacing counts on it). */
  sendOutput(chunk: Buffer, done: () => void): void;
}

/** What one session needs; the service fills it per socket. */
export interface ExecSessionDeps {
  engine: Engine;
  containerId: string;
  containerName: string;
  peer: ExecPeer;
  idleMs: number;
  /** Called once, when the session is over (whatever ended it), with what it ran. */
  onEnd: (end: SessionEnd) => void;
  log: { warn(obj: object, msg: string): void };
  /** Input is kept (bounded) for the recording only when this is true. */
  record: boolean;
}

export interface SessionEnd {
  reason: ExecEndReason;
  exitCode: number | null;
  startedAt: number;
  endedAt: number;
  command: string[];
  input: string;
  inputTruncated: boolean;
  /** False when the exec's process could not be confirmed gone. */
  reaped: boolean;
}

/**
 * Output waiting for the browser beyond this pauses the engine's stream (its flow control
 * then holds the process), and below the low mark it flows again: a slow browser holds at
 * most about this much of a session in memory.
 */
export const OUTPUT_HIGH_WATER = 1024 * 1024;
const OUTPUT_LOW_WATER = 256 * 1024;
/** A recording keeps at most this much input per session. */
const RECORDING_CAP = 256 * 1024;
/** The environment variable that marks a session's processes, so a second exec finds them. */
export const SESSION_MARK = 'BERTH_EXEC_SESSION';
/** How long a process may linger after its stream closed before it is killed. */
const LINGER_MS = 300;
const REAP_WAIT_MS = 5_000;

/** Splits a command line on spaces: no shell quoting (a shell is there for that). */
export const commandOf = (line: string): string[] => line.trim().split(/\s+/);

/**
 * One container shell: an exec with a TTY whose hijacked stream is paced to the browser,
 * ended by the process's exit, the idle timer, the socket's close or an engine failure.
 * Ending always makes sure the process is gone (see `reap`).
 */
export class ExecSession {
  private execId: string | null = null;
  private stream: Duplex | null = null;
  private readonly mark = randomUUID();
  private command: string[] = [];
  private startedAt = 0;
  private idle: NodeJS.Timeout | null = null;
  private waiting = 0;
  private paused = false;
  private ended = false;
  private input = '';
  private inputTruncated = false;

  constructor(private readonly deps: ExecSessionDeps) {}

  /** Creates and starts the exec; rejects with a message for the user when it cannot. */
  async start(request: ExecStart): Promise<void> {
    const { engine, containerId } = this.deps;
    this.command = commandOf(request.command);
    this.startedAt = Date.now();
    this.execId = await engine.createExec(containerId, {
      cmd: this.command,
      user: request.user,
      env: [`${SESSION_MARK}=${this.mark}`, 'TERM=xterm-256color'],
      tty: true,
      stdin: true,
    });
    const stream = await engine.startExec(this.execId, { tty: true, stdin: true });
    this.stream = stream;
    if (this.ended) {
      // The socket closed while the exec started: nothing will read it.
      stream.destroy();
      return;
    }
    stream.on('data', (chunk: Buffer) => this.output(chunk));
    stream.on('error', (err) => this.deps.log.warn({ err }, 'container shell stream failed'));
    stream.once('close', () => {
      this.finish('exited').catch(() => undefined);
    });
    this.touch();
    this.deps.peer.send({
      type: 'started',
      command: this.command,
      user: request.user,
      idle_minutes: Math.round(this.deps.idleMs / 60_000),
    });
    await this.resize(request.cols, request.rows);
  }

  write(data: string): void {
    if (this.stream === null || this.ended) return;
    this.touch();
    if (this.deps.record) this.keep(data);
    this.stream.write(data);
  }

  /** Whether the engine has an exec for this session (which an end must then reap). */
  get created(): boolean {
    return this.execId !== null;
  }

  /** Clamps the size to the bounds; tells the browser the size it got when it differs. */
  async resize(cols: number, rows: number): Promise<void> {
    if (this.execId === null || this.ended) return;
    this.touch(); // a resized window is someone at the screen
    const size = clampTerminalSize(cols, rows);
    if (size.cols !== cols || size.rows !== rows) this.deps.peer.send({ type: 'resized', ...size });
    try {
      await this.deps.engine.resizeExec(this.execId, size);
    } catch (err) {
      // A resize racing the process's exit fails harmlessly; the session goes on otherwise.
      this.deps.log.warn({ err }, 'resizing a container shell failed');
    }
  }

  /** Ends the session (once): closes the stream, then makes sure the process is gone. */
  async finish(reason: ExecEndReason): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    if (this.idle !== null) clearTimeout(this.idle);
    const stream = this.stream;
    if (stream !== null && !stream.destroyed) {
      stream.end();
      stream.destroy();
    }
    let exitCode: number | null = null;
    let reaped = true;
    if (this.execId !== null) {
      const state = await this.reap(this.execId);
      exitCode = reason === 'exited' ? state.exitCode : null;
      reaped = state.gone;
    }
    this.deps.onEnd({
      reason,
      exitCode,
      startedAt: this.startedAt,
      endedAt: Date.now(),
      command: this.command,
      input: this.input,
      inputTruncated: this.inputTruncated,
      reaped,
    });
  }

  /**
   * An exec has no kill call, and the engine leaves its process running when the stream
   * closes (a shell in a TTY may ignore the hang-up, its children surely do). So: wait a
   * moment, and if it still runs, a second exec kills every process of the container that
   * carries this session's mark in its environment (children inherit it).
   */
  private async reap(execId: string): Promise<{ exitCode: number | null; gone: boolean }> {
    const { engine } = this.deps;
    const inspect = () => engine.inspectExec(execId);
    try {
      let state = await inspect();
      const until = Date.now() + LINGER_MS;
      while (state.running && Date.now() < until) {
        await delay(50);
        state = await inspect();
      }
      if (!state.running) return { exitCode: state.exitCode, gone: true };
      await this.killMarked();
      const deadline = Date.now() + REAP_WAIT_MS;
      while (state.running && Date.now() < deadline) {
        await delay(100);
        state = await inspect();
      }
      return { exitCode: state.exitCode, gone: !state.running };
    } catch (err) {
      // A container that stopped or went away took its processes with it.
      if ((err as { statusCode?: unknown }).statusCode === 404)
        return { exitCode: null, gone: true };
      this.deps.log.warn({ err }, 'ending a container shell process failed');
      return { exitCode: null, gone: false };
    }
  }

  private async killMarked(): Promise<void> {
    const { engine, containerId } = this.deps;
    const script =
      // environ is NUL-separated, which busybox's grep stops at: one variable a line first.
      'for p in /proc/[0-9]*; do tr "\\0" "\\n" < "$p/environ" 2>/dev/null | grep -qxF "$1" && kill -9 "${p#/proc/}"; done; true';
    const id = await engine.createExec(containerId, {
      cmd: ['/bin/sh', '-c', script, 'berth-reap', `${SESSION_MARK}=${this.mark}`],
      user: '0',
      tty: false,
      stdin: false,
    });
    const stream = await engine.startExec(id, { tty: false, stdin: false });
    stream.resume();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        stream.destroy();
        resolve();
      }, REAP_WAIT_MS);
      stream.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      stream.on('error', () => undefined);
    });
  }

  private output(chunk: Buffer): void {
    this.waiting += chunk.length;
    this.deps.peer.sendOutput(chunk, () => {
      this.waiting -= chunk.length;
      if (this.paused && this.waiting < OUTPUT_LOW_WATER) {
        this.paused = false;
        this.stream?.resume();
      }
    });
    if (!this.paused && this.waiting > OUTPUT_HIGH_WATER) {
      this.paused = true;
      this.stream?.pause();
    }
  }

  private touch(): void {
    if (this.idle === null) {
      this.idle = setTimeout(() => {
        this.finish('idle').catch(() => undefined);
      }, this.deps.idleMs);
    } else this.idle.refresh();
  }

  private keep(data: string): void {
    const room = RECORDING_CAP - this.input.length;
    if (room <= 0) {
      this.inputTruncated = true;
      return;
    }
    this.input += data.slice(0, room);
    if (data.length > room) this.inputTruncated = true;
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
