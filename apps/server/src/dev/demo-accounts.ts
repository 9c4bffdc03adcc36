import type { Db } from '../db/database.js';
import { UserRepository } from '../modules/users/repository.js';
import { md5Hex, PasswordHasher } from '../security/passwords.js';
import { DEMO_APPROVERS } from './demo-programs.js';
import { SAMPLE_USERS } from './seed-accounts.js';

/** The platform admin's password on the demo's first start (ADMIN_PASSWORD overrides it). */
export const DEMO_ADMIN_PASSWORD = 'demo-admin1';

/** Who each demo account is, in the banner and the README. */
const ROLES: Record<string, string> = {
  admin: 'platform administrator (type 0)',
  sales1: 'distributor "North Sales Ltd" (type 1)',
  customer1: 'demo customer "Riverside School", its company account (type 2)',
  manager1: 'customer manager of Riverside School (type 3)',
  operator1: 'customer administrator of Riverside School (type 4)',
  newcustomer: 'a company account that has not activated yet (type 2)',
  approver1: 'program approver, level 1, of Riverside School (type 4)',
  approver2: 'program approver, level 2, of Riverside School (type 4)',
};

/**
 * One banner line per demo account: user name, password and role. The password is shown only
 * when it still signs in (checked against the stored hash); a changed one is not guessed.
 */
export async function demoAccountLines(db: Db, pepper: string): Promise<string[]> {
  const users = new UserRepository(db.kysely);
  const hasher = new PasswordHasher(pepper);
  const accounts = [
    { userName: 'admin', password: process.env.ADMIN_PASSWORD ?? DEMO_ADMIN_PASSWORD },
    ...SAMPLE_USERS.map((u) => ({ userName: u.userName, password: u.password })),
    ...DEMO_APPROVERS.map((u) => ({ userName: u.userName, password: u.password })),
  ];
  const lines: string[] = [];
  for (const { userName, password } of accounts) {
    const user = await users.findByName(userName);
    if (!user) continue;
    const works = await hasher.verify(user.password_hash, md5Hex(password));
    const shown = works ? password : '(changed; npm run admin:reset-password -- --user ' + userName + ')';
    lines.push(`${userName.padEnd(12)} ${shown.padEnd(14)} ${ROLES[userName] ?? ''}`);
  }
  return lines;
}
