import type { FastifyInstance } from 'fastify';
import { allCalls, describeAccess, failReply, type Access } from '@panelfleet/contract';
import { z } from 'zod';

const SECURITY: Record<Access['kind'], Array<Record<string, string[]>>> = {
  anonymous: [],
  panel: [{ panel: [] }],
  user: [{ session: [] }],
};

/** An OpenAPI 3.1 document generated from the contract's call definitions. */
export function buildOpenApi() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const call of allCalls) {
    const params = z.toJSONSchema(call.params, { io: 'input', unrepresentable: 'any' }) as {
      properties?: Record<string, unknown>;
      required?: string[];
    };
    const success = call.produces
      ? { [call.produces]: { schema: { type: 'string' } } }
      : {
          'application/json': {
            schema: z.toJSONSchema(call.reply, { io: 'output', unrepresentable: 'any' }),
          },
        };
    const operation: Record<string, unknown> = {
      summary: call.summary,
      tags: [call.tag],
      description: `Who may call: ${describeAccess(call.access)}.`,
      'x-access': call.access,
      security: SECURITY[call.access.kind],
      responses: {
        '200': { description: 'success', content: success },
        default: {
          description: 'fail',
          content: { 'application/json': { schema: z.toJSONSchema(failReply) } },
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
    info: { title: 'PanelFleet API', version: '1' },
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'pf_session' },
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
