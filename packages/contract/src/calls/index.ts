import type { CallDef } from '../call.js';
import * as auth from './auth.js';

const isCall = (value: unknown): value is CallDef =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'reply' in value;

/** Every call of the contract, for the OpenAPI document and the route coverage test. */
export const allCalls: CallDef[] = [auth].flatMap((group) => (Object.values(group) as unknown[]).filter(isCall));
