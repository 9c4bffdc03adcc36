import { Validator } from '@seriousme/openapi-schema-validator';
import { allCalls, scopesAdmitting, tokenNeedOf } from '@panelfleet/contract';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from './openapi.js';

type Operation = { 'x-token-scopes': string[]; description: string; security: unknown[] };

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(
      JSON.parse(JSON.stringify(buildOpenApi())) as Parameters<Validator['validate']>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('shows every call’s token scopes beside its access', () => {
    const paths = buildOpenApi().paths;
    for (const call of allCalls) {
      const path = call.path.replace(/:(\w+)/g, '{$1}');
      const operation = paths[path]![call.method.toLowerCase()] as Operation;
      const scopes = scopesAdmitting(tokenNeedOf(call));
      expect(operation['x-token-scopes'], `${call.method} ${call.path}`).toEqual(scopes);
      if (call.access.kind === 'user')
        expect(operation.description).toMatch(
          scopes.length ? /API tokens of scope/ : /Never with an API token/,
        );
    }
  });
});
