import { AsyncLocalStorage } from 'node:async_hooks';
import type { TokenScope } from '@panelfleet/contract';

/** An API token a request came with: who it is, what it may do, where it may reach. */
export interface ActingToken {
  id: number;
  name: string;
  scope: TokenScope;
  /** Labels the token is restricted to; empty: every panel its user reaches. */
  labelIds: readonly number[];
}

const acting = new AsyncLocalStorage<ActingToken>();

/**
 * Runs a call's handler as done with `token`: whatever it writes to the operation log, by any
 * path, names the token (operation-log/repository.ts reads it), so no service has to pass it on.
 */
export const runWithToken = <T>(token: ActingToken | undefined, work: () => T): T =>
  token ? acting.run(token, work) : work();

/** The token the current request acts with, if any. */
export const actingToken = (): ActingToken | undefined => acting.getStore();
