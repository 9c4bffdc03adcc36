import fs from 'node:fs';
import path from 'node:path';
import { randomToken } from './tokens.js';

/**
 * The password pepper: PASSWORD_PEPPER if set (required when several instances share a
 * database), else a secret generated once and kept in DATA_DIR.
 */
export function loadPepper(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'pepper.secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const pepper = randomToken(32);
  fs.writeFileSync(file, pepper, { mode: 0o600, flag: 'wx' });
  return pepper;
}
