import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';
import { permissionOf } from '../auth/index.js';
import { fetchDocument, openApiPath, type OpenApiDocument } from './openapi-check.js';
import { errorStatuses, tagOf } from './route-docs.js';

let t: TestApp;
let cookie: string;
let document: OpenApiDocument;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await signedInCookie(t.app);
  document = await fetchDocument(t.app, cookie);
});
afterAll(() => t.close());

/** The page's own routes are left out of the document it shows. */
const DOCS_PAGE = /^\/api\/docs(\/|$)/;
/** Routes outside /api that are the API's: they declare a permission. */
const OUTSIDE_API = new Set(['/metrics']);
const apiRoutes = () =>
  t.app.routeTable.filter(
    (r) =>
      (r.url.startsWith('/api/') || OUTSIDE_API.has(r.url)) &&
      !DOCS_PAGE.test(r.url) &&
      r.method !== 'HEAD' &&
      r.method !== 'OPTIONS',
  );
const ERROR_BODY = {
  type: 'object',
  properties: { detail: { type: 'string' } },
  required: ['detail'],
  additionalProperties: false,
};

describe('GET /api/openapi.json and /api/docs', () => {
  it('need a session or a key', async () => {
    for (const url of ['/api/openapi.json', '/api/docs', '/api/docs/scalar.js']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json(), url).toEqual({ detail: 'Not authenticated' });
    }
  });

  it('answer an API key of any scope', async () => {
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { cookie },
      payload: { name: 'docs reader', scope: 'read' },
    });
    expect(made.statusCode).toBe(201);
    const authorization = `Bearer ${made.json<{ key: string }>().key}`;
    for (const url of ['/api/openapi.json', '/api/docs']) {
      expect((await t.app.inject({ url, headers: { authorization } })).statusCode, url).toBe(200);
    }
  });

  it('is an OpenAPI 3.1 document that a standard parser validates', async () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.title).toBe('Berth API');
    // validate() dereferences in place: it gets a copy.
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
    expect(Object.keys(document.components?.securitySchemes ?? {}).sort()).toEqual([
      'apiKey',
      'session',
    ]);
    expect(document.info.description).toContain('container_stats');
  });

  it('has every /api route with its answers, its error answers and its permission', () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(60);
    const withoutAnswer: string[] = [];
    for (const route of routes) {
      const name = `${route.method} ${route.url}`;
      const operation = document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
      expect(operation, name).toBeDefined();
      if (operation === undefined) continue;
      const success = Object.entries(operation.responses).filter(([s]) =>
        /^(2\d\d|101|302)$/.test(s),
      );
      if (success.length === 0) withoutAnswer.push(name);
      for (const [status, response] of success) {
        // A WebSocket upgrade and a redirect have no body; CSV and Prometheus' text are not JSON.
        const bodies = Object.values(response.content ?? {});
        if (status !== '101' && status !== '302' && !bodies.some((b) => b.schema !== undefined))
          withoutAnswer.push(`${name} ${status}`);
      }
      const permission = permissionOf(route.method, route.url);
      expect(operation['x-berth-permission'], name).toBe(permission);
      expect(operation.security, name).toEqual(
        permission === 'public' ? [] : permission === 'account' ? [{ session: [] }] : undefined,
      );
      const expected = errorStatuses(name, {}, permission);
      if (permission !== 'public')
        expect(expected, name).toEqual(expect.arrayContaining([401, 403]));
      for (const status of expected) {
        const schema = operation.responses[status]?.content?.['application/json']?.schema;
        expect(schema, `${name} ${status}`).toEqual(ERROR_BODY);
      }
    }
    expect(withoutAnswer).toEqual([]);
  });

  it('groups operations by area', () => {
    expect(tagOf('/api/v2/auth/login')).toBe('auth');
    expect(tagOf('/api/hosts/:id')).toBe('hosts');
    expect(tagOf('/api/hosts/:hostId/containers/:containerId/logs')).toBe('containers');
    expect(tagOf('/api/containers/:hostId/:containerId/http-health-check')).toBe('health-checks');
    expect(tagOf('/api/registry-credentials/:id')).toBe('updates');
  });

  it('lists no route that the app does not have, and not the docs page', () => {
    const registered = new Set(apiRoutes().map((r) => `${r.method} ${openApiPath(r.url)}`));
    for (const [path, operations] of Object.entries(document.paths)) {
      expect(path).not.toMatch(/^\/api\/docs/);
      for (const method of Object.keys(operations)) {
        expect(registered, `${method} ${path}`).toContain(`${method.toUpperCase()} ${path}`);
      }
    }
  });

  it('serves the reference page without inline script, and scalar from Berth', async () => {
    const page = await t.app.inject({ url: '/api/docs', headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self';");
    // Scalar's components write style attributes: allowed on this page, and only here.
    expect(policy).toContain("style-src-attr 'unsafe-inline'");
    const elsewhere = await t.app.inject({ url: '/api/openapi.json', headers: { cookie } });
    expect(elsewhere.headers['content-security-policy']).toContain("style-src-attr 'none'");
    // Every script element loads a file: none carries code of its own.
    expect(page.body).toMatch(/<script src="\/api\/docs\/scalar\.js"><\/script>/);
    expect(page.body.match(/<script[^>]*>[^<]/g)).toBeNull();
    expect(page.body).not.toMatch(/https?:\/\//);

    const script = await t.app.inject({
      url: '/api/docs/scalar.js',
      headers: { cookie, 'accept-encoding': 'br' },
    });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
    expect(script.headers['content-encoding']).toBe('br');
    expect(script.rawPayload.length).toBeGreaterThan(100_000);
    const plain = await t.app.inject({ url: '/api/docs/scalar.js', headers: { cookie } });
    // Its zod's probe for eval, which the CSP would report, is off before it loads.
    expect(plain.body.split('\n')[0]).toContain('jitless: true');
    // The key fields open empty, on the bearer key: no made-up secret as the cookie's.
    expect(plain.body).toContain('placeholder:``');
    expect(plain.body).not.toContain('QUxMIFlPVVIgQkFTRSBBUkUgQkVMT05HIFRPIFVT');
    expect(page.body).toContain('&quot;preferredSecurityScheme&quot;:&quot;session&quot;');
  });
});
