import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HOOK = fileURLToPath(new URL('./lazy-engine-deps.ts', import.meta.url));

/** Runs a script in a fresh process (the hook is process-wide) and returns what it printed. */
function run(script: string): Record<string, unknown> {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
}

const LOADED = `
  const { createRequire } = await import('node:module');
  const req = createRequire(process.cwd() + '/');
  const loaded = (name) => Object.keys(req.cache).some((k) => k.includes('/node_modules/' + name + '/') && !k.endsWith('.berth-lazy.cjs'));
`;

describe('lazy engine dependencies', () => {
  it('dockerode loads without ssh2 or gRPC, and still reaches ssh2 when an ssh engine connects', () => {
    const seen = run(`
      const { installLazyEngineDeps } = await import(${JSON.stringify(HOOK)});
      installLazyEngineDeps();
      ${LOADED}
      const Docker = (await import('dockerode')).default;
      const atImport = { ssh2: loaded('ssh2'), grpc: loaded('@grpc/grpc-js'), protobufjs: loaded('protobufjs') };
      const ssh = new Docker({ protocol: 'ssh', host: '127.0.0.1', port: 1, username: 'nobody' });
      const error = await ssh.ping().then(() => 'answered', (e) => e.code ?? e.message);
      const session = req('dockerode/lib/session.js');
      console.log(JSON.stringify({ atImport, error, ssh2After: loaded('ssh2'), session: typeof session }));
    `);
    expect(seen).toEqual({
      atImport: { ssh2: false, grpc: false, protobufjs: false },
      // The real ssh2 client ran: it tried the port and was refused.
      error: 'ECONNREFUSED',
      ssh2After: true,
      session: 'function',
    });
  });

  it('gRPC stand-ins read from the real module on first use', () => {
    const seen = run(`
      const { installLazyEngineDeps } = await import(${JSON.stringify(HOOK)});
      installLazyEngineDeps();
      ${LOADED}
      await import('dockerode');
      const before = loaded('@grpc/grpc-js');
      // session.js is the module the hook serves the stand-ins to; read one as it would.
      const grpc = createRequire(req.resolve('dockerode/lib/session.js'))('@grpc/grpc-js');
      const server = typeof grpc.Server;
      console.log(JSON.stringify({ before, server, after: loaded('@grpc/grpc-js') }));
    `);
    expect(seen).toEqual({ before: false, server: 'function', after: true });
  });
});
