import { withStartUpLock } from '../../db/start-up-lock.js';
import type { Base } from '../../foundation.js';
import { DeploymentSecretRepository } from './repository.js';
import { DeploymentMismatch, pepperFingerprint, verifyDeploymentSecrets } from './secrets.js';

export { DeploymentMismatch };

/** First start, once for all instances: the shared secrets' checks, then `firstStart`. */
export async function installDeployment(f: Base, needs: { firstStart: () => Promise<void> }) {
  await withStartUpLock(f.db, async () => {
    await verifyDeploymentSecrets(
      new DeploymentSecretRepository(f.kysely),
      { pepper: pepperFingerprint(f.pepper), firmwareSigningKey: f.signer.publicKeyBase64 },
      f.clock.now(),
    );
    await needs.firstStart();
  });
}
