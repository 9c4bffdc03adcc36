/**
 * What kind of refusal a service raises. Services and repositories speak only in these kinds;
 * the HTTP edge (http/errors.ts) alone decides which status each becomes.
 */
export type RefusalKind =
  /** A business rule said no; the spec answers these with HTTP 200 and `hhtStatus: "fail"`. */
  | 'declined'
  /** The request itself is malformed or breaks a validation rule. */
  | 'invalid'
  /** No valid credentials (session, panel password, link signature). */
  | 'unauthenticated'
  /** Authenticated, but this caller may not do this. */
  | 'forbidden'
  /** The thing does not exist in the caller's reach (another tenant's id reads the same). */
  | 'notFound'
  /** The thing's current state forbids the change (in use, taken name, wrong step). */
  | 'conflict'
  /** The thing existed but is no longer usable (an expired link). */
  | 'gone'
  /** A body or file beyond its limit. */
  | 'tooLarge'
  /** A byte range that the file cannot serve. */
  | 'rangeNotSatisfiable'
  /** A throttle said wait. */
  | 'tooMany'
  /** Another server we depend on (the platform) failed. */
  | 'upstreamFailed'
  /** A part of this server (the database) is away for now; try again shortly. */
  | 'unavailable';

/**
 * A refusal the caller caused or must wait out: it becomes a `fail` envelope whose hhtMsg is the
 * message `key` in the caller's language. Anything else thrown is a server fault (500, logged).
 */
export class Refusal extends Error {
  constructor(
    readonly key: string,
    readonly kind: RefusalKind = 'declined',
    readonly vars: Record<string, string | number> = {},
    readonly errorCode?: string,
  ) {
    super(key);
    this.name = 'Refusal';
  }
}

/**
 * The session is missing, expired, unknown or tampered, or its user may no longer sign in: the
 * edge answers it with the legacy 518 marker, which sends the console to sign-in.
 */
export class SessionEnded extends Refusal {
  constructor(readonly reason: string) {
    super('common.sessionExpired', 'unauthenticated');
    this.name = 'SessionEnded';
  }
}

/** A refusal whose text came from another PanelFleet server (the platform), already translated. */
export class RelayedRefusal extends Refusal {
  constructor(
    readonly text: string,
    errorCode?: string,
  ) {
    super('relayed', 'declined', {}, errorCode);
    this.name = 'RelayedRefusal';
  }
}
