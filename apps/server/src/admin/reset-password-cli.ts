import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { loadPepper } from '../security/pepper.js';
import { resetPassword } from './reset-password.js';

/**
 * `npm run admin:reset-password [-- --user NAME]`: a new password for `admin` (or NAME), printed
 * once. It reads the same settings as the server (DATABASE_URL, DATA_DIR, PASSWORD_PEPPER), so run
 * it where the server runs, e.g. `DATA_DIR=./data/demo npm run admin:reset-password` for the
 * demo. NEW_PASSWORD sets the password instead of generating one (kept out of shell history).
 */
const { values } = parseArgs({ options: { user: { type: 'string', default: 'admin' } } });
const config = loadConfig();
const where = config.database.kind === 'sqlite' ? config.database.file : 'the database of DATABASE_URL';
if (config.database.kind === 'sqlite' && !fs.existsSync(config.database.file)) {
  // Never a new, empty database (and a new pepper) in a folder the server does not use.
  console.error(`No database at ${where}: set DATA_DIR (or DATABASE_URL) as for the server.`);
  process.exit(1);
}
if (!config.passwordPepper && !fs.existsSync(path.join(config.dataDir, 'pepper.secret'))) {
  // The pepper is part of every hash: a new one would make a password nobody can sign in with.
  console.error(
    `No pepper.secret in ${config.dataDir}: set DATA_DIR (or PASSWORD_PEPPER) as for the server.`,
  );
  process.exit(1);
}
const db = openDatabase(config.database);
try {
  const done = await resetPassword(
    db,
    loadPepper(config.passwordPepper, config.dataDir),
    values.user,
    process.env.NEW_PASSWORD || undefined,
  );
  if (!done) {
    console.error(`No user named "${values.user}" in ${where}.`);
    process.exitCode = 1;
  } else {
    console.log(`New password of ${values.user}: ${done.password}`);
    console.log('Every session of this user has ended; sign in with the new password.');
  }
} finally {
  await db.close();
}
