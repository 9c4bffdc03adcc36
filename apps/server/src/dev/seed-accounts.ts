import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import type { UsersTable } from '../db/schema.js';
import { OrganisationRepository } from '../modules/organisations/repository.js';
import { UserRepository } from '../modules/users/repository.js';
import { md5Hex, PasswordHasher } from '../security/passwords.js';

export interface SeedUser {
  userName: string;
  password: string;
  userType: UsersTable['user_type'];
  activated?: 0 | 1;
  enabled?: 0 | 1;
  programRole?: number;
  validBegin?: number | null;
  validEnd?: number | null;
}

/**
 * One account of each user type, with a distributor and a customer organisation, for the
 * demo and for tests. Passwords are given in plain text and stored as the browser would send them.
 */
export const SAMPLE_USERS: SeedUser[] = [
  { userName: 'sales1', password: 'sales123', userType: '1' },
  { userName: 'customer1', password: 'customer123', userType: '2', activated: 1 },
  { userName: 'newcustomer', password: 'customer123', userType: '2', activated: 0 },
  { userName: 'manager1', password: 'manager123', userType: '3', activated: 1 },
  { userName: 'operator1', password: 'operator123', userType: '4', activated: 1 },
];

export interface SeededAccounts {
  distributorId: number;
  customerId: number;
  userIds: Record<string, number>;
}

export async function seedAccounts(
  db: Db,
  pepper: string,
  clock: Clock,
  users: SeedUser[] = SAMPLE_USERS,
): Promise<SeededAccounts> {
  const orgs = new OrganisationRepository(db.kysely);
  const repo = new UserRepository(db.kysely);
  const hasher = new PasswordHasher(pepper);
  const platform = await orgs.findPlatform();
  if (!platform) throw new Error('seedAccounts needs a migrated database with its platform organisation');
  const now = clock.now();
  const distributorId = await orgs.insert({
    parent_id: platform.id,
    kind: 'distributor',
    name: 'North Sales Ltd',
    user_quota: 10,
    created_at: now,
  });
  const customerId = await orgs.insert({
    parent_id: distributorId,
    kind: 'customer',
    name: 'Riverside School',
    user_quota: 5,
    created_at: now,
  });
  const userIds: Record<string, number> = {};
  for (const user of users) {
    userIds[user.userName] = await repo.insert({
      org_id: user.userType === '1' ? distributorId : customerId,
      user_name: user.userName,
      password_hash: await hasher.hash(md5Hex(user.password)),
      user_type: user.userType,
      activated: user.activated ?? 1,
      enabled: user.enabled ?? 1,
      program_role: user.programRole ?? 0,
      valid_begin: user.validBegin ?? null,
      valid_end: user.validEnd ?? null,
      phone: '+86-10-5555-0100',
      email: `${user.userName}@example.com`,
      created_at: now,
    });
  }
  return { distributorId, customerId, userIds };
}
