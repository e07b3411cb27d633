/** One JSON object per line on stdout, like Berth's own logs (docker logs, the journal). */
export function logLine(level: 'info' | 'warn' | 'error', msg: string): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg })}\n`);
}
