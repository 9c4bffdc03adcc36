import type { SessionUser } from '../../http/router.js';

/**
 * Whose webhooks a caller sees and changes: those of its own organisation (a company's users
 * their company's, a distributor's staff the distributor's, the platform's the platform's). The
 * organisation comes from the session, never from the request.
 */
export const webhookOwner = (caller: SessionUser): number => caller.orgId;

/** Webhooks one organisation may have. */
export const MAX_WEBHOOKS_PER_ORGANISATION = 20;

/** A slow receiver holds at most this many of an instance's attempts at once. */
export const MAX_ATTEMPTS_PER_WEBHOOK = 2;
