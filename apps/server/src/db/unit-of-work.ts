import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Runs `work` in one transaction with repositories bound to it: everything it writes commits
 * together, and anything it throws (a Refusal too) rolls all of it back.
 *
 * For a rule that reads and writes through several repositories and must hold as a whole (edit a
 * device with its labels and its operation-log row; claim an idempotency key with the commands
 * it creates). A transaction of one repository's statements is a method of that repository. The
 * module's entry (modules/<name>/index.ts) builds each Transact with the repositories a service
 * needs; the service never sees Kysely.
 */
export type Transact<Repositories> = <T>(work: (repositories: Repositories) => Promise<T>) => Promise<T>;

export function transactor<Repositories>(
  db: Kysely<Database>,
  bind: (trx: Kysely<Database>) => Repositories,
): Transact<Repositories> {
  return (work) => db.transaction().execute((trx) => work(bind(trx)));
}
