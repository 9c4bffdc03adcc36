import crypto from 'node:crypto';
import { webhooks } from '@panelfleet/contract';

/** A new signing secret: 32 random bytes, base64url (43 characters), shown to its owner once. */
export const newSecret = () => crypto.randomBytes(32).toString('base64url');

/**
 * The signature header of a delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
 * The key is the secret as it was shown (its 43 characters as UTF-8 bytes, not decoded).
 */
export function signatureHeader(secret: string, unixSeconds: number, body: string): string {
  const mac = crypto.createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** The headers of one attempt of a delivery. */
export function deliveryHeaders(
  secret: string,
  unixSeconds: number,
  body: string,
  eventType: string,
  deliveryId: number,
): Record<string, string> {
  const { signature, event, delivery } = webhooks.WEBHOOK_HEADERS;
  return {
    [signature]: signatureHeader(secret, unixSeconds, body),
    [event]: eventType,
    [delivery]: String(deliveryId),
  };
}

/**
 * An event id as a UUID: random for an event one instance makes (an alert change, a test), derived
 * from `key` (SHA-256, version-5 layout) for an event every instance hears, so all derive the same.
 */
export function eventId(key?: string): string {
  if (key === undefined) return crypto.randomUUID();
  const hash = crypto.createHash('sha256').update(`panelfleet:${key}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The retry schedule: 30 s after the first failed attempt, doubling, at most an hour apart. */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, Math.min(failedAttempts - 1, 20)), 3_600_000);
}
