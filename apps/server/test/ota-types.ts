export { ota, otaRules, uploads } from '@panelfleet/contract';

/** What the tus helpers need of a test client: its session cookie. */
export interface TestClientLike {
  cookie(name: string): string | undefined;
}
