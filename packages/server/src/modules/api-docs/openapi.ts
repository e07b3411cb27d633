import { clientLiveMessageSchema, liveMessageSchema } from '@berth/contracts';
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE } from '../auth/index.js';
import { jsonSchemaOf } from './built-schema.js';
import { documentRoute } from './route-docs.js';

/** Every `type` a discriminated union of the live channel's messages has. */
const typesOf = (union: { options: readonly { shape: { type: { value: string } } }[] }) =>
  union.options.map((o) => `\`${o.shape.type.value}\``).join(', ');

/** The document's description, with the live channel that no HTTP operation describes. */
const description = () => `Berth's HTTP API: every route under \`/api\`, generated from the zod \
contracts the server validates requests and answers with.

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

/**
 * Registers @fastify/swagger, which collects each route as it is added: before every route.
 * The document itself is built on its first request and kept, so starting pays nothing for it.
 */
export async function registerOpenApi(app: FastifyInstance, version: () => string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Berth API', version: '0.0.0' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key (Settings → API Keys), within its scope',
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
        info: { title: 'Berth API', version: version(), description: description() },
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
  });
}
