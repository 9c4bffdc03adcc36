import crypto from 'node:crypto';
import type { DeploymentSecretRepository, SecretName } from './repository.js';

/** Why an instance may not start: it would refuse every password or sign what panels refuse. */
export class DeploymentMismatch extends Error {}

const PEPPER_CHECK_TEXT = 'panelfleet pepper check v1';

const HOW_TO_FIX: Record<SecretName, string> = {
  pepper:
    'PASSWORD_PEPPER differs from the pepper this database was first started with, so every ' +
    'password would be refused (and five tries would lock accounts for every instance). Start ' +
    'every instance with the same PASSWORD_PEPPER: the first instance used its PASSWORD_PEPPER ' +
    'or the pepper.secret file in its DATA_DIR.',
  firmwareSigningKey:
    'FIRMWARE_SIGNING_KEY differs from the key this database was first started with, so panels ' +
    'would refuse every firmware this instance signs. Start every instance with the same ' +
    'FIRMWARE_SIGNING_KEY: the first instance used its FIRMWARE_SIGNING_KEY or the ' +
    'firmware-signing-key.pem file in its DATA_DIR.',
};

export const pepperFingerprint = (pepper: string) =>
  crypto.createHmac('sha256', pepper).update(PEPPER_CHECK_TEXT).digest('hex');

/**
 * The first instance records a check of each shared secret; every later start compares its own
 * and refuses to start, with what to do, when one differs. Runs under the start-up lock.
 */
export async function verifyDeploymentSecrets(
  repository: DeploymentSecretRepository,
  mine: Record<SecretName, string>,
  now: number,
): Promise<void> {
  const recorded = await repository.fingerprints();
  for (const name of Object.keys(mine) as SecretName[]) {
    const known = recorded.get(name);
    if (known === undefined) await repository.record(name, mine[name], now);
    else if (known !== mine[name]) throw new DeploymentMismatch(HOW_TO_FIX[name]);
  }
}
