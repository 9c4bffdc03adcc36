import { apiTokens, type TokenScope } from '@panelfleet/contract';
import type { TestClient } from './harness.js';

/** Makes a token through the personal centre's call, as the signed-in `client`; returns it with its id. */
export async function makeToken(
  client: TestClient,
  scope: TokenScope,
  options: { name?: string; expiresAt?: number; labelIds?: number[] } = {},
) {
  const reply = await client.post('/platform/apiToken/create', {
    name: options.name ?? `${scope} token`,
    scope,
    ...(options.expiresAt ? { expiresAt: String(options.expiresAt) } : {}),
    ...(options.labelIds ? { labelIds: options.labelIds.join(',') } : {}),
  });
  return apiTokens.createToken.reply.parse(reply.body).dataObject;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
