import type { FastifyInstance } from 'fastify';

/** A signed-in JSON client for `inject`, so tests read as calls. */
export function apiClient(app: FastifyInstance, cookie: string) {
  const call = async <T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) => {
    const res = await app.inject({
      method,
      url: `/api${url}`,
      headers: { cookie },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.json<T>() };
  };
  return {
    get: <T = unknown>(url: string) => call<T>('GET', url),
    post: <T = unknown>(url: string, payload?: unknown) => call<T>('POST', url, payload),
    put: <T = unknown>(url: string, payload?: unknown) => call<T>('PUT', url, payload),
    patch: <T = unknown>(url: string, payload?: unknown) => call<T>('PATCH', url, payload),
    delete: <T = unknown>(url: string) => call<T>('DELETE', url),
  };
}
