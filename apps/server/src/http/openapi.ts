import type { FastifyInstance } from 'fastify';
import {
  allCalls,
  describeAccess,
  failReply,
  scopesAdmitting,
  tokenNeedOf,
  type Access,
} from '@panelfleet/contract';
import { z } from 'zod';

const SECURITY: Record<Access['kind'], Array<Record<string, string[]>>> = {
  anonymous: [],
  panel: [{ panel: [] }],
  user: [{ session: [] }, { token: [] }],
};

/** The security of a user call: a session always; a token only when some scope admits the call. */
const securityOf = (access: Access, scopes: readonly string[]) =>
  access.kind === 'user' && !scopes.length ? [{ session: [] }] : SECURITY[access.kind];

/**
 * Moves a generated schema's `$defs` (zod writes recursive and shared parts there, referred to
 * as `#/$defs/x`) into the document's components: in an OpenAPI document `#` is the document
 * itself, so such a reference resolves only from `#/components/schemas`.
 */
function lifted(schema: unknown, prefix: string, components: Record<string, unknown>): unknown {
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => key !== '$defs' && key !== '$schema')
        .map(([key, value]) => [
          key,
          key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')
            ? `#/components/schemas/${prefix}.${value.slice('#/$defs/'.length)}`
            : rewrite(value),
        ]),
    );
  };
  const defs = (schema as { $defs?: Record<string, unknown> }).$defs ?? {};
  for (const [name, def] of Object.entries(defs)) components[`${prefix}.${name}`] = rewrite(def);
  return rewrite(schema);
}

/** An OpenAPI 3.1 document generated from the contract's call definitions. */
export function buildOpenApi() {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, unknown> = {};
  for (const call of allCalls) {
    const prefix = `${call.method}${call.path.replace(/[^A-Za-z0-9]+/g, '_')}`;
    const params = lifted(
      z.toJSONSchema(call.params, { io: 'input', unrepresentable: 'any' }),
      `${prefix}.params`,
      schemas,
    ) as {
      properties?: Record<string, unknown>;
      required?: string[];
    };
    const success = call.produces
      ? { [call.produces]: { schema: { type: 'string' } } }
      : {
          'application/json': {
            schema: lifted(
              z.toJSONSchema(call.reply, { io: 'output', unrepresentable: 'any' }),
              `${prefix}.reply`,
              schemas,
            ),
          },
        };
    const scopes = scopesAdmitting(tokenNeedOf(call));
    const tokenText =
      call.access.kind !== 'user'
        ? ''
        : scopes.length
          ? ` API tokens of scope ${scopes.join(', ')}.`
          : ' Never with an API token.';
    const operation: Record<string, unknown> = {
      summary: call.summary,
      tags: [call.tag],
      description: `Who may call: ${describeAccess(call.access)}.${tokenText}`,
      'x-access': call.access,
      'x-token-scopes': scopes,
      security: securityOf(call.access, scopes),
      responses: {
        '200': { description: 'success', content: success },
        default: {
          description: 'fail',
          content: { 'application/json': { schema: lifted(z.toJSONSchema(failReply), 'fail', schemas) } },
        },
      },
    };
    if (call.method === 'GET') {
      operation.parameters = Object.entries(params.properties ?? {}).map(([name, schema]) => ({
        name,
        in: 'query',
        required: params.required?.includes(name) ?? false,
        schema,
      }));
    } else if (call.method === 'PATCH') {
      // tus: the bytes themselves.
      operation.requestBody = {
        content: { 'application/offset+octet-stream': { schema: { type: 'string', format: 'binary' } } },
      };
    } else if (call.method === 'POST') {
      operation.requestBody = {
        content: {
          'application/x-www-form-urlencoded': { schema: params },
          'application/json': { schema: params },
        },
      };
    }
    const pathParams = [...call.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (pathParams.length)
      operation.parameters = [...pathParams, ...((operation.parameters as unknown[]) ?? [])];
    const path = call.path.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [call.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'PanelFleet API',
      version: '1',
      description:
        'Every call of the console. A script signs in with an API token made in the personal centre, sent as ' +
        '`Authorization: Bearer pf_...`: it acts as its user within its scope (read; operate: also panels; ' +
        'manage: also rollouts and settings), shown on each call beside who may make it. Replies use the ' +
        'envelope: `hhtStatus` "success" or "fail", `hhtMsg` in the Accept-Language. See docs/api-quickstart.md.',
    },
    components: {
      schemas,
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'pf_session' },
        token: {
          type: 'http',
          scheme: 'bearer',
          description: 'an API token (pf_...) made in the personal centre: acts as its user within its scope',
        },
        panel: {
          type: 'http',
          scheme: 'basic',
          description: 'a panel: serial number and its own device password',
        },
      },
    },
    paths,
  };
}

export function installOpenApi(app: FastifyInstance) {
  const document = buildOpenApi();
  app.get('/api-docs', async () => document);
}
