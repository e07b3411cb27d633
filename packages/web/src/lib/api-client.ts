import { errorBodySchema } from '@berth/contracts';
import type { z } from 'zod';

/** An answer of the API with an error status; `message` follows spec 1 §8. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The server could not be reached at all. */
export class NetworkError extends Error {
  constructor() {
    super('Connection error. Please check if the backend is running.');
    this.name = 'NetworkError';
  }
}

type Params = Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  params?: Params;
}

function queryString(params: Params | undefined): string {
  if (params === undefined) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value))
      for (const v of value as (string | number)[]) search.append(key, String(v));
    else search.append(key, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** The error message: the JSON body's detail, else the plain text, else the status text. */
async function errorMessage(res: Response): Promise<string> {
  const text = await res.text();
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data.detail;
  } catch {
    // not JSON
  }
  return text.trim() !== '' ? text : res.statusText;
}

/**
 * Calls `/api{path}` with cookies and JSON, and parses the answer with a contracts schema.
 * A 204 or an empty answer reads as `{}`.
 */
export async function api<S extends z.ZodType>(
  path: string,
  schema: S,
  options: RequestOptions = {},
): Promise<z.output<S>> {
  let res: Response;
  try {
    res = await fetch(`/api${path}${queryString(options.params)}`, {
      method: options.method ?? 'GET',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
  } catch {
    throw new NetworkError();
  }
  if (!res.ok) throw new ApiError(res.status, await errorMessage(res));
  const text = await res.text();
  return schema.parse(text.trim() === '' ? {} : JSON.parse(text));
}

/** The message to show for any error (spec 1 §8 falls back to 'Unknown error'). */
export function errorText(err: unknown, fallback = 'Unknown error'): string {
  return err instanceof Error && err.message !== '' ? err.message : fallback;
}
