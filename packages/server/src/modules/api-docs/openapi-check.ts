import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';

/** What the tests read of the OpenAPI document. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
}
export interface Operation {
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
  security?: unknown[];
  tags?: string[];
  'x-berth-permission'?: string;
}

/** Fastify's `/api/hosts/:hostId` as the document writes it: `/api/hosts/{hostId}`. */
export const openApiPath = (url: string): string => url.replace(/:([A-Za-z_]+)/g, '{$1}');

export async function fetchDocument(
  app: FastifyInstance,
  cookie: string,
): Promise<OpenApiDocument> {
  const res = await app.inject({ url: '/api/openapi.json', headers: { cookie } });
  if (res.statusCode !== 200) throw new Error(`openapi.json answered ${res.statusCode}`);
  return res.json<OpenApiDocument>();
}

interface ValidateFunction {
  (data: unknown): boolean;
  errors?: { instancePath: string; message?: string }[] | null;
}
interface Ajv2020 {
  addSchema(schema: object, key: string): void;
  getSchema(ref: string): ValidateFunction | undefined;
}

/** A require from where a package of ours is installed, for what that package depends on. */
const requireBeside = (pkg: string) => createRequire(createRequire(import.meta.url).resolve(pkg));

/**
 * ajv 8 with JSON Schema 2020-12, the dialect of OpenAPI 3.1, and its formats (date-time, uri).
 * The root `ajv` is version 6 (ESLint's): swagger-parser's ajv 8 and fastify's ajv-formats are
 * used, as installed beside them, instead of adding a package.
 */
function newAjv2020(): Ajv2020 {
  const Ajv = (
    requireBeside('@apidevtools/swagger-parser')('ajv/dist/2020') as {
      default: new (opts: object) => Ajv2020;
    }
  ).default;
  const addFormats = (
    requireBeside('fastify')('ajv-formats') as {
      default: (ajv: Ajv2020) => void;
    }
  ).default;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv;
}

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * Checks answers against the document's response schemas: the whole document is added once,
 * so `$ref`s into its components resolve, and each operation's schema is compiled on first use.
 */
export function answerChecker(document: OpenApiDocument) {
  const ajv = newAjv2020();
  ajv.addSchema(document, 'openapi');
  return (method: string, url: string, status: number, body: unknown): string[] => {
    const path = openApiPath(url);
    const response = document.paths[path]?.[method.toLowerCase()]?.responses[String(status)];
    if (response?.content?.['application/json'] === undefined) {
      return [`${method} ${path} documents no JSON answer for ${status}`];
    }
    const ref = `openapi#/${pointer('paths', path, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema')}`;
    const validate = ajv.getSchema(ref);
    if (validate === undefined) return [`no schema at ${ref}`];
    return validate(body)
      ? []
      : (validate.errors ?? []).map(
          (e) => `${method} ${url} ${status}: ${e.instancePath} ${e.message ?? ''}`,
        );
  };
}
