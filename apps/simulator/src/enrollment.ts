import { device } from '@panelfleet/contract';

export interface EnrollmentOptions {
  serverUrl: string;
  serial: string;
  enrollmentSecret: string;
  model: string;
  machineType: string;
  /** First wait after a 503 or no answer (protocol 2: ENROLL_RETRY_FIRST_MS); tests shorten it. */
  retryFirstMs?: number;
  retryMaxMs?: number;
  /** Gives up after this many attempts (default: never; a panel keeps trying). */
  maxAttempts?: number;
  /** Stops retrying (the panel is being stopped). */
  signal?: AbortSignal;
  log(message: string): void;
}

/** 503 from the server; 502 and 504 from a balancer in front of it that reached no server. */
const RETRYABLE_STATUSES = [502, 503, 504];

/** The server refused the enrollment for good (a wrong secret, a bad request): retrying will not help. */
export class EnrollmentRefused extends Error {}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('stopped'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('stopped'));
    });
  });

/**
 * Enrollment as docs/device-protocol.md section 2 says: one JSON POST; a 503 (the server is briefly
 * unable) or no answer at all (refused, reset, a balancer's 502 or 504) is tried again after a
 * jittered, growing wait, so a fleet enrolling at once spreads out instead of giving up; any
 * other refusal ends it.
 */
export async function enroll(options: EnrollmentOptions): Promise<device.EnrollmentReply> {
  const firstMs = options.retryFirstMs ?? device.ENROLL_RETRY_FIRST_MS;
  const maxMs = options.retryMaxMs ?? device.ENROLL_RETRY_MAX_MS;
  for (let attempt = 1; ; attempt++) {
    let retryable: string;
    try {
      const response = await fetch(`${options.serverUrl}/device/enroll`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          v: device.PROTOCOL_VERSION,
          serial: options.serial,
          enrollmentSecret: options.enrollmentSecret,
          model: options.model,
          machineType: options.machineType,
        }),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const body = (await response.json().catch(() => ({}))) as { hhtStatus?: string; hhtMsg?: string };
      if (body.hhtStatus === 'success') return device.enroll.reply.parse(body).dataObject;
      if (!RETRYABLE_STATUSES.includes(response.status))
        throw new EnrollmentRefused(
          `enrollment of ${options.serial} refused: ${body.hhtMsg ?? response.status}`,
        );
      retryable = `${response.status} ${body.hhtMsg ?? ''}`.trim();
    } catch (err) {
      if (err instanceof EnrollmentRefused || options.signal?.aborted) throw err;
      retryable = `no answer: ${String(err)}`;
    }
    if (options.maxAttempts !== undefined && attempt >= options.maxAttempts)
      throw new Error(`enrollment of ${options.serial} failed after ${attempt} attempts: ${retryable}`);
    const wait = device.backoffDelay(attempt, firstMs, maxMs);
    options.log(`${options.serial}: enrollment ${retryable}; trying again in ${wait} ms`);
    await sleep(wait, options.signal);
  }
}
