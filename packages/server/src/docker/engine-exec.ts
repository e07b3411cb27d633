import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import type { EngineClientOptions, EngineEndpoint } from './engine-client.js';

/** What an exec runs: the command, its user, its environment, with a TTY or without. */
export interface ExecSpec {
  cmd: string[];
  /** Empty: the container's own user. */
  user: string;
  env?: string[];
  tty: boolean;
  /** Whether the exec reads the stream's input (a shell does; a one-off command need not). */
  stdin: boolean;
}

/** An exec instance as the engine reports it. */
export interface ExecState {
  running: boolean;
  exitCode: number | null;
  /** The process's pid in the engine host's namespace (0 before it started). */
  pid: number;
}

/**
 * The engine's exec operations, part of `Engine` (engine.ts). Kept in a file of their own so
 * each resource's calls, their bounds and their answers' types are found together.
 */
export interface EngineExec {
  /** The ids of the exec instances the engine keeps for a container (running or ended). */
  containerExecIds(containerId: string): Promise<string[]>;
  /** Creates an exec instance in a running container (409 when it is not); answers its id. */
  createExec(containerId: string, spec: ExecSpec): Promise<string>;
  /**
   * Starts an exec and answers its hijacked connection: what is written reaches the process's
   * input, what it prints arrives raw (with a TTY; multiplexed frames without one). The
   * connection is bounded until the engine upgrades it; after that its reader bounds it.
   */
  startExec(execId: string, options: { tty: boolean; stdin: boolean }): Promise<Duplex>;
  /** Sets the exec's TTY size (only once it has started). */
  resizeExec(execId: string, size: { cols: number; rows: number }): Promise<void>;
  inspectExec(execId: string): Promise<ExecState>;
}

/** The exec operations over dockerode, mixed into the engine `openEngine` answers. */
export function execOperations(
  docker: Docker,
  _endpoint: EngineEndpoint,
  _options: EngineClientOptions,
): EngineExec {
  // Every call below goes through the client's guarded agents (engine-client.ts): connect and
  // first-byte timeouts for all, and the answer cap for the buffered ones.
  return {
    containerExecIds: async (id) => (await docker.getContainer(id).inspect()).ExecIDs ?? [],

    createExec: async (containerId, spec) => {
      const exec = await docker.getContainer(containerId).exec({
        Cmd: spec.cmd,
        User: spec.user,
        Env: spec.env ?? [],
        Tty: spec.tty,
        AttachStdin: spec.stdin,
        AttachStdout: true,
        AttachStderr: true,
      });
      return exec.id;
    },

    startExec: (execId, options) =>
      docker.getExec(execId).start({ hijack: true, stdin: options.stdin, Tty: options.tty }),

    resizeExec: async (execId, size) => {
      await docker.getExec(execId).resize({ h: size.rows, w: size.cols });
    },

    inspectExec: async (execId) => {
      const info = await docker.getExec(execId).inspect();
      return { running: info.Running, exitCode: info.ExitCode, pid: info.Pid };
    },
  };
}
