import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Clock } from '../../clock.js';
import { Refusal } from '../../refusal.js';
import type { SecondFactorRepository } from './second-factor-repository.js';
import type { SecretSealer } from '../../security/sealed.js';
import { newRecoveryCodes, type RecoveryCodeHash } from './recovery-codes.js';

/** RFC 6238 as authenticator apps expect it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_S = 30;
/** A code of the step before or after the server's clock passes too (clock drift, typing time). */
const WINDOW = 1;

export interface Enrolment {
  secret: string;
  otpauthUrl: string;
  qrCode: string;
}

/** How a second step was passed: an authenticator code or a recovery code. */
export type FactorUsed = 'totp' | 'recovery';

/** Who a second factor belongs to. */
export interface FactorOwner {
  id: number;
  orgId: number;
  userName: string;
}

/**
 * The second factor of local accounts: TOTP (RFC 6238) with ten single-use recovery codes. The
 * secret is sealed at rest (SecretSealer); a code is accepted once (its step must be newer than the
 * last accepted one), a recovery code once.
 */
export class SecondFactorService {
  constructor(
    private readonly deps: {
      repository: SecondFactorRepository;
      /** Seals the TOTP secrets at rest. */
      sealer: SecretSealer;
      codeHash: RecoveryCodeHash;
      clock: Clock;
      /** The issuer authenticator apps show beside the account (the console's title). */
      issuer: string;
    },
  ) {}

  /** Whether the user has a confirmed second factor. */
  async enrolled(userId: number): Promise<boolean> {
    const row = await this.deps.repository.find(userId);
    return row?.confirmed_at != null;
  }

  required(orgId: number): Promise<boolean> {
    return this.deps.repository.required(orgId);
  }

  setRequired(orgId: number, required: boolean): Promise<void> {
    return this.deps.repository.setRequired(orgId, required);
  }

  async state(user: FactorOwner) {
    const [enrolled, required, recoveryLeft] = await Promise.all([
      this.enrolled(user.id),
      this.required(user.orgId),
      this.deps.repository.recoveryLeft(user.id),
    ]);
    return { enrolled: enrolled ? 1 : 0, required: required ? 1 : 0, recoveryLeft } as const;
  }

  /** A new secret waiting for its first code (replacing one that waited). */
  async start(user: FactorOwner): Promise<Enrolment> {
    const secret = new Secret({ size: 20 });
    const stored = await this.deps.repository.startPending(
      user.id,
      this.deps.sealer.seal(secret.base32),
      this.deps.clock.now(),
    );
    if (!stored) throw new Refusal('secondFactor.alreadyEnrolled', 'conflict');
    const otpauthUrl = this.totp(secret.base32, user.userName).toString();
    const qrCode = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 1, width: 200 });
    return { secret: secret.base32, otpauthUrl, qrCode };
  }

  /** Confirms the waiting secret with a code of it; answers the recovery codes (shown once, kept hashed). */
  async confirm(user: FactorOwner, code: string): Promise<string[]> {
    const { repository, sealer, codeHash } = this.deps;
    const row = await repository.find(user.id);
    if (!row) throw new Refusal('secondFactor.notStarted');
    if (row.confirmed_at !== null) throw new Refusal('secondFactor.alreadyEnrolled', 'conflict');
    const step = this.stepOf(sealer.open(row.secret), user.userName, code);
    if (step === null) throw new Refusal('secondFactor.codeWrong');
    const codes = newRecoveryCodes();
    const confirmed = await repository.confirm(
      user.id,
      step,
      this.deps.clock.now(),
      codes.map((c) => codeHash(c)),
    );
    if (!confirmed) throw new Refusal('secondFactor.alreadyEnrolled', 'conflict');
    return codes;
  }

  /** Checks a sign-in's code: an authenticator code not used before, or an unused recovery code. */
  async verify(user: FactorOwner, code: string): Promise<FactorUsed | null> {
    const { repository, sealer, codeHash, clock } = this.deps;
    const row = await repository.find(user.id);
    if (!row || row.confirmed_at === null) return null;
    const digits = code.replace(/\s/g, '');
    if (/^\d{6}$/.test(digits)) {
      const step = this.stepOf(sealer.open(row.secret), user.userName, digits);
      return step !== null && (await repository.claimStep(user.id, step)) ? 'totp' : null;
    }
    return (await repository.spendRecoveryCode(user.id, codeHash(code), clock.now())) ? 'recovery' : null;
  }

  /** The user turns the factor off with a current code; not while the organisation requires it. */
  async remove(user: FactorOwner, code: string): Promise<void> {
    if (!(await this.enrolled(user.id))) throw new Refusal('secondFactor.notEnrolled');
    if (await this.required(user.orgId)) throw new Refusal('secondFactor.required', 'forbidden');
    if (!(await this.verify(user, code))) throw new Refusal('secondFactor.codeWrong');
    await this.deps.repository.remove(user.id);
  }

  /** An administrator's reset: the factor and its recovery codes are gone; answers whether there was one. */
  reset(userId: number): Promise<boolean> {
    return this.deps.repository.remove(userId);
  }

  private totp(secret: string, label: string) {
    return new TOTP({
      issuer: this.deps.issuer,
      label,
      secret,
      digits: 6,
      period: PERIOD_S,
      algorithm: 'SHA1',
    });
  }

  /** The 30-second step a 6-digit code belongs to within the window, or null. */
  private stepOf(secret: string, label: string, code: string): number | null {
    const timestamp = this.deps.clock.now();
    const delta = this.totp(secret, label).validate({ token: code.trim(), timestamp, window: WINDOW });
    if (delta === null) return null;
    return Math.floor(timestamp / 1000 / PERIOD_S) + delta;
  }
}
