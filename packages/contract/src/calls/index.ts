import type { CallDef } from '../call.js';
import * as accounts from './accounts.js';
import * as auth from './auth.js';
import * as servers from './servers.js';
import * as deviceCalls from '../device/calls.js';

const isCall = (value: unknown): value is CallDef =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'reply' in value;

/** Every call of the contract, for the OpenAPI document and the route coverage test. */
export const allCalls: CallDef[] = [auth, accounts, servers, deviceCalls].flatMap((group) => (Object.values(group) as unknown[]).filter(isCall));
