import type { Db } from '../db/database.js';
import { SessionRepository } from '../modules/session/repository.js';
import { UserRepository } from '../modules/users/repository.js';
import { md5Hex, PasswordHasher } from '../security/passwords.js';
import { randomToken } from '../security/tokens.js';

/** A new password of the shape the first start generates for admin (letters and digits). */
export function generatePassword(): string {
  return randomToken(9).replace(/[-_]/g, 'x') + '7a';
}

/**
 * Sets a user's password from the command line, for whoever lost the admin password: the
 * server's own hashing (pepper of the data folder), and every session of the user ends. Returns
 * undefined when there is no such user.
 */
export async function resetPassword(
  db: Db,
  pepper: string,
  userName: string,
  password: string = generatePassword(),
): Promise<{ password: string; userType: string } | undefined> {
  const users = new UserRepository(db.kysely);
  const user = await users.findByName(userName);
  if (!user) return undefined;
  await users.setPassword(user.id, await new PasswordHasher(pepper).hash(md5Hex(password)));
  await new SessionRepository(db.kysely).deleteForUser(user.id);
  return { password, userType: user.user_type };
}
