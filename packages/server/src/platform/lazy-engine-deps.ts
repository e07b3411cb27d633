import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * dockerode loads ssh2 (for ssh:// engines, through docker-modem) and gRPC with protobufjs
 * (for BuildKit sessions) when it is imported: ~30 MB resident, a 16 MB WebAssembly memory
 * that ssh2 instantiates at load, and ~150 ms of a cold start. Berth reaches engines over a
 * socket, TCP or TLS and never builds images, so neither is used; this hook hands dockerode
 * stand-ins that load the real module the first time anything of it is used, so an ssh
 * engine or a session would still work, only paying for the load then.
 * Installed by main before the app is imported; tests import the app directly and load the
 * real modules, which behave the same.
 */
const LAZY: Record<string, { parent: RegExp; stub: (real: string) => string }> = {
  ssh2: {
    parent: /\/docker-modem\/lib\/ssh\.js$/,
    // docker-modem reads `Client` at load and constructs it per ssh connection.
    stub: (real) =>
      `const load = () => process.getBuiltinModule('node:module').createRequire(${JSON.stringify(real)})(${JSON.stringify(real)});\n` +
      `class Client { constructor(...args) { return new (load().Client)(...args); } }\n` +
      `module.exports = { Client };\n`,
  },
  '@grpc/grpc-js': { parent: /\/dockerode\/lib\/session\.js$/, stub: proxyStub },
  '@grpc/proto-loader': { parent: /\/dockerode\/lib\/session\.js$/, stub: proxyStub },
};

/** A module whose properties are read from the real one, loaded on the first read. */
function proxyStub(real: string): string {
  return (
    `let mod;\n` +
    `const load = () => (mod ??= process.getBuiltinModule('node:module').createRequire(${JSON.stringify(real)})(${JSON.stringify(real)}));\n` +
    `module.exports = new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });\n`
  );
}

const STUB_SUFFIX = '.berth-lazy.cjs';

export function installLazyEngineDeps(): void {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const lazy = LAZY[specifier];
      const resolved = nextResolve(specifier, context);
      if (lazy === undefined || !lazy.parent.test(context.parentURL ?? '')) return resolved;
      return {
        ...resolved,
        url: resolved.url + STUB_SUFFIX,
        format: 'commonjs',
        shortCircuit: true,
      };
    },
    load(url, context, nextLoad) {
      if (!url.endsWith(STUB_SUFFIX)) return nextLoad(url, context);
      const specifier = Object.keys(LAZY).find((name) => url.includes(`/node_modules/${name}/`));
      const real = fileURLToPath(url.slice(0, -STUB_SUFFIX.length));
      const stub = specifier === undefined ? undefined : LAZY[specifier]?.stub(real);
      if (stub === undefined) return nextLoad(url, context);
      return { format: 'commonjs', source: stub, shortCircuit: true };
    },
  });
}
