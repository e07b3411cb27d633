import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server-process.js';
import { waitFor } from './wait.js';

export interface PrometheusServer {
  base: string;
  /** An instant PromQL query over the HTTP API: each series' labels and value. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: number }[]>;
  stop(): Promise<void>;
}

interface QueryAnswer {
  status: string;
  data: { result: { metric: Record<string, string>; value: [number, string] }[] };
}

/**
 * Debian's prometheus scraping one target every second, with a temporary configuration and
 * storage, on a free loopback port. `bearer`: the key it scrapes with.
 */
export async function startPrometheus(target: string, bearer: string): Promise<PrometheusServer> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-prometheus-'));
  const port = await freePort();
  const config = join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    [
      'global: { scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s }',
      'scrape_configs:',
      '  - job_name: berth',
      `    authorization: { type: Bearer, credentials: "${bearer}" }`,
      `    static_configs: [{ targets: ["${target}"] }]`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      'prometheus ready',
      async () => {
        if (child.exitCode !== null) throw new Error(`prometheus exited: ${stderr}`);
        return (await fetch(`${base}/-/ready`, { signal: AbortSignal.timeout(1000) })).ok;
      },
      30_000,
      200,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    base,
    stop,
    query: async (promql) => {
      const url = `${base}/api/v1/query?query=${encodeURIComponent(promql)}`;
      const answer = (await (
        await fetch(url, { signal: AbortSignal.timeout(5000) })
      ).json()) as QueryAnswer;
      if (answer.status !== 'success') throw new Error(`query failed: ${JSON.stringify(answer)}`);
      return answer.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
  };
}

/** `promtool check metrics` on an exposition text: its complaints, '' when there are none. */
export function promtoolCheck(text: string): { status: number | null; output: string } {
  const r = spawnSync('promtool', ['check', 'metrics'], {
    input: text,
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}`.trim() };
}
