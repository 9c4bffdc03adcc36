import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import { md5Hex, type PasswordHasher } from '../../security/passwords.js';
import { randomToken } from '../../security/tokens.js';
import type { OrganisationRepository } from '../organisations/repository.js';
import type { UserRepository } from './repository.js';

/**
 * The first start creates the platform organisation and the type-0 user `admin`. Its password
 * is ADMIN_PASSWORD, or one generated here and printed to the log this once.
 */
export async function ensurePlatformAdmin(deps: {
  organisations: OrganisationRepository;
  users: UserRepository;
  hasher: PasswordHasher;
  clock: Clock;
  log: FastifyBaseLogger;
  adminPassword?: string;
}): Promise<void> {
  if (await deps.organisations.findPlatform()) return;
  const now = deps.clock.now();
  const orgId = await deps.organisations.insert({
    parent_id: null,
    kind: 'platform',
    name: 'PanelFleet',
    user_quota: 0,
    created_at: now,
  });
  const password = deps.adminPassword ?? randomToken(9).replace(/[-_]/g, 'x') + '7a';
  await deps.users.insert({
    org_id: orgId,
    user_name: 'admin',
    password_hash: await deps.hasher.hash(md5Hex(password)),
    user_type: '0',
    activated: 1,
    enabled: 1,
    program_role: 0,
    created_at: now,
  });
  if (deps.adminPassword) deps.log.info('created platform user admin with the password from ADMIN_PASSWORD');
  else deps.log.warn(`created platform user admin; its generated password (shown once): ${password}`);
}
