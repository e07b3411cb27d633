import { parentPort, Worker, workerData } from 'node:worker_threads';

const WORKER_ROLE = 'berth-scalar-script';
/** Under tests the source runs as TypeScript; the built server runs the compiled file. */
const WORKER_URL = new URL(
  import.meta.url.endsWith('.ts') ? './scalar-script.ts' : './scalar-script.js',
  import.meta.url,
);
/** Loading and reading the plugin takes well under a second; a stuck load is cut. */
const LOAD_TIMEOUT_MS = 30_000;

/**
 * Scalar's standalone bundle (~5 MB), as its Fastify plugin serves it: the plugin is the only
 * installed package that ships it. Loading the plugin costs ~110 ms and ~35 MB that an ES
 * module never gives back, so it is loaded in a worker thread that answers the script's text
 * and ends, on the first visit to the page, never at start.
 */
export function loadScalarScript(): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL, { workerData: { role: WORKER_ROLE } });
    // Ending it cannot fail in a way that matters: its answer, or the reason, is already given.
    const end = (): void => {
      worker.terminate().catch(() => undefined);
    };
    const timer = setTimeout(() => {
      reject(new Error("loading scalar's script timed out"));
      end();
    }, LOAD_TIMEOUT_MS);
    worker.once('message', (script: unknown) => {
      clearTimeout(timer);
      if (typeof script === 'string') resolve(script);
      else reject(new Error(`scalar's script could not be read: ${JSON.stringify(script)}`));
      end();
    });
    worker.once('error', (err: unknown) => {
      clearTimeout(timer);
      reject(err instanceof Error ? err : new Error(String(err)));
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`scalar's loader exited with ${code}`));
    });
  });
}

/** In the worker: the plugin's own route, on a private Fastify instance, answers the script. */
async function readScript(): Promise<string> {
  const [{ default: Fastify }, { default: scalar }] = await Promise.all([
    import('fastify'),
    import('@scalar/fastify-api-reference'),
  ]);
  const donor = Fastify({ logger: false });
  try {
    await donor.register(scalar, { routePrefix: '/r', configuration: { content: '{}' } });
    const res = await donor.inject({ url: '/r/js/scalar.js' });
    if (res.statusCode !== 200) throw new Error(`the plugin answered ${res.statusCode}`);
    return res.body;
  } finally {
    await donor.close();
  }
}

if (parentPort !== null && (workerData as { role?: unknown } | null)?.role === WORKER_ROLE) {
  const port = parentPort;
  readScript().then(
    (script) => port.postMessage(script),
    (err: unknown) => port.postMessage({ error: String(err) }),
  );
}
