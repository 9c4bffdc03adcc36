import type { FastifyInstance } from 'fastify';
import { allCalls, failReply } from '@panelfleet/contract';
import { z } from 'zod';

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
      : { 'application/json': { schema: z.toJSONSchema(call.reply, { io: 'output', unrepresentable: 'any' }) } };
    const operation: Record<string, unknown> = {
      summary: call.summary,
      tags: [call.tag],
      security: call.access === 'session' ? [{ session: [] }] : [],
      responses: {
        '200': { description: 'success', content: success },
        default: { description: 'fail', content: { 'application/json': { schema: z.toJSONSchema(failReply) } } },
      },
    };
    if (call.method === 'GET') {
      operation.parameters = Object.entries(params.properties ?? {}).map(([name, schema]) => ({
        name,
        in: 'query',
        required: params.required?.includes(name) ?? false,
        schema,
      }));
    } else {
      operation.requestBody = {
        content: { 'application/x-www-form-urlencoded': { schema: params }, 'application/json': { schema: params } },
      };
    }
    paths[call.path] = { ...paths[call.path], [call.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'PanelFleet API', version: '1' },
    components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'pf_session' } } },
    paths,
  };
}

export function installOpenApi(app: FastifyInstance) {
  const document = buildOpenApi();
  app.get('/api-docs', async () => document);
}
