import { clientLiveMessageSchema, liveMessageSchema } from '@berth/contracts';
import type { SwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance, FastifyServerOptions, RouteOptions } from 'fastify';
import { SESSION_COOKIE } from '../auth/index.js';
import { jsonSchemaOf } from './built-schema.js';
import { documentRoute } from './route-docs.js';

/** Every `type` a discriminated union of the live channel's messages has. */
const typesOf = (union: { options: readonly { shape: { type: { value: string } } }[] }) =>
  union.options.map((o) => `\`${o.shape.type.value}\``).join(', ');

/** The document's description, with the live channel that no HTTP operation describes. */
const description = () => `Berth's HTTP API: every route under \`/api\` and Prometheus' \
\`/metrics\`, generated from the zod contracts the server validates requests and answers with.

**Authentication.** Sign in with \`POST /api/v2/auth/login\` (the \`${SESSION_COOKIE}\` cookie), \
or send an API key made in Settings → API Keys as \`Authorization: Bearer <key>\`. Each \
operation names the permission it needs (\`x-berth-permission\`): \`read\` is reached by keys of \
every scope, \`operate\` by \`operate\` and \`admin\` keys, \`admin\` by \`admin\` keys, and \
\`account\` by a signed-in session only. State-changing calls with a session must come from \
Berth's own origin.

**Errors.** Every error answer is \`{"detail": "..."}\`; bad input names its field \
(\`"name: must not be empty"\`).

**Live channel.** \`GET /ws/?protocol=2\` upgrades to a WebSocket (session cookie, same origin). \
The server sends JSON messages \`{"type", "data"}\` (schema \`LiveMessage\`): ${typesOf(
  liveMessageSchema,
)}. \`containers_update\` is full after connecting and on request, deltas after that, each with a \
\`seq\`. The client may send (schema \`LiveClientMessage\`) ${typesOf(clientLiveMessageSchema)}. \
Without \`protocol=2\`, \`initial_state\` and \`containers_update\` take protocol 1's shapes.`;

/** Fastify's factory types speak of ajv schemas; the document's builder checks nothing. */
const NO_CHECKS = {
  buildValidator: () => () => true,
  buildSerializer: () => (data: unknown) => JSON.stringify(data),
} as unknown as NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;

/** The OpenAPI document of the app's routes, built on first use and kept. */
export interface OpenApi {
  document(): Promise<Record<string, unknown>>;
}

/**
 * Collects every route as it is added (so: before every route). @fastify/swagger and the
 * document are loaded and built on the first request for it, on a private Fastify instance
 * that the collected routes are added to with their schemas and config: an install that never
 * asks for the document pays neither the plugin's modules (~5 MB of idle RSS) nor its hooks.
 */
export function registerOpenApi(app: FastifyInstance, version: () => string): OpenApi {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    // Fastify adds a HEAD beside every GET; the document leaves them out.
    if (route.method !== 'HEAD') routes.push(route);
  });
  let built: Promise<Record<string, unknown>> | null = null;
  return {
    document: () => {
      built ??= buildDocument(routes, version()).catch((err: unknown) => {
        built = null;
        throw err;
      });
      return built;
    },
  };
}

async function buildDocument(
  routes: readonly RouteOptions[],
  version: string,
): Promise<Record<string, unknown>> {
  const [{ default: Fastify }, { default: swagger }] = await Promise.all([
    import('fastify'),
    import('@fastify/swagger'),
  ]);
  const builder = Fastify({ logger: false, schemaController: { compilersFactory: NO_CHECKS } });
  try {
    await builder.register(swagger, swaggerOptions(version));
    for (const route of routes) {
      // Read at build time: the permission is stamped on the route's config as it registers.
      const { method, url, schema, config } = route;
      builder.route({
        method,
        url,
        ...(schema === undefined ? {} : { schema }),
        ...(config === undefined ? {} : { config }),
        handler: () => undefined,
      });
    }
    await builder.ready();
    return builder.swagger() as unknown as Record<string, unknown>;
  } finally {
    await builder.close();
  }
}

function swaggerOptions(version: string): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Berth API', version },
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description: 'The signed-in session; the browser sends its cookie',
          },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key (Settings → API Keys), or pick session',
          },
        },
      },
      security: [{ session: [] }, { apiKey: [] }],
    },
    transform: documentRoute,
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject;
      const { openapiObject } = document;
      const described: Record<string, unknown> = {
        ...openapiObject,
        info: { title: 'Berth API', version, description: description() },
        components: {
          ...openapiObject.components,
          schemas: {
            ...openapiObject.components?.schemas,
            LiveMessage: jsonSchemaOf(liveMessageSchema),
            LiveClientMessage: jsonSchemaOf(clientLiveMessageSchema),
          },
        },
      };
      return described;
    },
  };
}
