/**
 * A refusal the caller caused: it becomes a `fail` envelope whose hhtMsg is the message `key`
 * in the caller's language. Anything else thrown is a server fault (500, logged).
 */
export class AppError extends Error {
  constructor(
    readonly key: string,
    readonly httpStatus = 200,
    readonly vars: Record<string, string | number> = {},
    readonly errorCode?: string,
  ) {
    super(key);
    this.name = 'AppError';
  }
}

/** A refusal whose text came from another PanelFleet server (the platform), already translated. */
export class RelayedFail extends AppError {
  constructor(
    readonly text: string,
    errorCode?: string,
  ) {
    super('relayed', 200, {}, errorCode);
    this.name = 'RelayedFail';
  }
}

/** The session is missing, expired, unknown or tampered: the legacy 518 marker. */
export class SessionExpiredError extends AppError {
  constructor(readonly reason: string) {
    super('common.sessionExpired', 401);
    this.name = 'SessionExpiredError';
  }
}
