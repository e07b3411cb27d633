import { resolve } from 'node:path';
import { z } from 'zod';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const httpUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}, 'must be an http:// or https:// URL');

/** `scheme://host[:port]` of an http(s) origin with nothing else, or null. */
function parseOrigin(entry: string): string | null {
  try {
    const url = new URL(entry);
    const bare = url.pathname === '/' && url.search === '' && url.hash === '';
    const plain = url.username === '' && url.password === '';
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !bare || !plain) return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** Environment variables Berth reads; this module is the only reader of process.env. */
const envSchema = z.object({
  BERTH_PORT: z.coerce
    .number({ message: 'must be a port number' })
    .int('must be a port number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(8080),
  BERTH_HOST: z.string().min(1, 'must not be empty').default('0.0.0.0'),
  BERTH_DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  BERTH_ADMIN_USERNAME: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(100, 'must be at most 100 characters')
    .default('admin'),
  BERTH_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  BERTH_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      message: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  /** json lines for log collectors, pretty lines for people; unset: pretty on a terminal. */
  BERTH_LOG_FORMAT: z.enum(['json', 'pretty'], { message: 'must be json or pretty' }).optional(),
  BERTH_SECURE_COOKIES: booleanFlag.default(false),
  /** Behind a reverse proxy: read the client address and https from X-Forwarded-*. */
  BERTH_TRUST_PROXY: booleanFlag.default(false),
  /** Origins besides Berth's own that may send state-changing requests (a proxy's public URL). */
  BERTH_ALLOWED_ORIGINS: z
    .string()
    .transform((value, ctx) => {
      const origins: string[] = [];
      for (const entry of value.split(',').map((e) => e.trim())) {
        if (entry === '') continue;
        const origin = parseOrigin(entry);
        if (origin === null) {
          ctx.addIssue({
            code: 'custom',
            message: `must be comma-separated origins like https://berth.example.com (bad: ${JSON.stringify(entry)})`,
          });
          return z.NEVER;
        }
        origins.push(origin);
      }
      return origins;
    })
    .default([]),
  /** Registered as a host on the first start when it answers; `none` turns that off. */
  BERTH_LOCAL_SOCKET: z
    .string()
    .regex(/^(none|unix:\/\/\/.+)$/, 'must be none or a unix:/// socket address')
    .default('unix:///var/run/docker.sock'),
  /** How container stats are read: auto (files when visible, else the Engine API), files or api. */
  BERTH_STATS_SOURCE: z
    .enum(['auto', 'files', 'api'], { message: 'must be auto, files or api' })
    .default('auto'),
  /** Where the built web app lives; defaults to packages/web/dist beside the server. */
  BERTH_WEB_DIR: z.string().min(1).optional(),
  /** A URL answering JSON {version, url, notes} about Berth's newest release; unset = no checks. */
  BERTH_RELEASE_FEED_URL: z
    .string()
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '';
      } catch {
        return false;
      }
    }, 'must be an http:// or https:// URL')
    .optional(),
  /** Where notifications go: the public services unless pointed elsewhere (tests, air-gapped sites). */
  BERTH_TELEGRAM_API_URL: httpUrl.default('https://api.telegram.org'),
  BERTH_PUSHOVER_API_URL: httpUrl.default('https://api.pushover.net'),
  BERTH_NTFY_URL: httpUrl.default('https://ntfy.sh'),
  /** First retry delay of a failed notification; each next one doubles, up to an hour. */
  BERTH_NOTIFICATION_RETRY_BASE_MS: z.coerce
    .number({ message: 'must be a number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .min(1, 'must be between 1 and 3600000')
    .max(3_600_000, 'must be between 1 and 3600000')
    .default(5000),
});

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  adminUsername: string;
  adminPassword: string | undefined;
  logLevel: z.infer<typeof envSchema>['BERTH_LOG_LEVEL'];
  logFormat: 'json' | 'pretty';
  secureCookies: boolean;
  trustProxy: boolean;
  /** Normalised origins (scheme://host[:port]) trusted besides the request's own. */
  allowedOrigins: string[];
  webDir: string;
  localSocket: string | null;
  statsSource: 'auto' | 'files' | 'api';
  /** Where Berth reads about its own newest release, or null for no checks. */
  releaseFeedUrl: string | null;
  /** Base URLs of the notification services with a fixed API address. */
  notificationEndpoints: { telegramApiUrl: string; pushoverApiUrl: string; ntfyUrl: string };
  notificationRetryBaseMs: number;
}

/** A configuration value Berth cannot start with; the message names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const SECRET_VARIABLES = new Set(['BERTH_ADMIN_PASSWORD']);
const DEFAULT_WEB_DIR = new URL('../../../web/dist', import.meta.url).pathname;

/**
 * Parses the environment; throws ConfigError naming every bad variable. `terminal` says
 * whether stdout is one, which picks the log format when BERTH_LOG_FORMAT is unset.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  terminal: boolean = process.stdout.isTTY,
): AppConfig {
  const picked = Object.fromEntries(
    Object.keys(envSchema.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]),
  );
  const parsed = envSchema.safeParse(picked);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      // Secrets are never echoed back, not even in an error.
      const got = SECRET_VARIABLES.has(name) ? '' : ` (got ${JSON.stringify(picked[name])})`;
      return `${name}: ${issue.message}${got}`;
    });
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  return {
    port: e.BERTH_PORT,
    host: e.BERTH_HOST,
    dataDir: resolve(e.BERTH_DATA_DIR),
    adminUsername: e.BERTH_ADMIN_USERNAME,
    adminPassword: e.BERTH_ADMIN_PASSWORD,
    logLevel: e.BERTH_LOG_LEVEL,
    logFormat: e.BERTH_LOG_FORMAT ?? (terminal ? 'pretty' : 'json'),
    secureCookies: e.BERTH_SECURE_COOKIES,
    trustProxy: e.BERTH_TRUST_PROXY,
    allowedOrigins: e.BERTH_ALLOWED_ORIGINS,
    webDir: resolve(e.BERTH_WEB_DIR ?? DEFAULT_WEB_DIR),
    localSocket: e.BERTH_LOCAL_SOCKET === 'none' ? null : e.BERTH_LOCAL_SOCKET,
    statsSource: e.BERTH_STATS_SOURCE,
    releaseFeedUrl: e.BERTH_RELEASE_FEED_URL ?? null,
    notificationEndpoints: {
      telegramApiUrl: e.BERTH_TELEGRAM_API_URL,
      pushoverApiUrl: e.BERTH_PUSHOVER_API_URL,
      ntfyUrl: e.BERTH_NTFY_URL,
    },
    notificationRetryBaseMs: e.BERTH_NOTIFICATION_RETRY_BASE_MS,
  };
}
