import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { accounts } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { containsFolded } from '../../db/search.js';
import { pageOffset, requireType } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { SessionUser } from '../../http/router.js';
import type { OperationLog } from '../operation-log/repository.js';

type Fields = { companyName: string; saleName: number; state: number; validBeginTime: number; validEndTime: number; type: 0 | 1 };

const KEY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** PF-XXXX-XXXX-XXXX-XXXX: 80 random bits in an alphabet without look-alike characters. */
export function generateLicenseKey(): string {
  const bytes = crypto.randomBytes(16);
  const chars = [...bytes].map((b) => KEY_ALPHABET[b % KEY_ALPHABET.length]);
  return `PF-${[0, 4, 8, 12].map((i) => chars.slice(i, i + 4).join('')).join('-')}`;
}

/** Licenses (type 0 only): generated keys; a used license keeps state 0 and cannot be deleted. */
export class LicenseService {
  constructor(private readonly deps: { db: Kysely<Database>; log: OperationLog; clock: Clock }) {}

  async list(caller: SessionUser, params: { start: number; size: number; companyName?: string }): Promise<{ rows: accounts.License[]; total: number }> {
    requireType(caller, '0');
    const base = () => {
      const query = this.deps.db.selectFrom('licenses').innerJoin('salespeople', 'salespeople.id', 'licenses.salesperson_id');
      return params.companyName ? query.where(containsFolded('licenses.company_name', params.companyName)) : query;
    };
    const [rows, count] = await Promise.all([
      base().selectAll('licenses').select('salespeople.name as sale_man_name').orderBy('licenses.id', 'desc').limit(params.size).offset(pageOffset(params.start, params.size)).execute(),
      base().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      total: Number(count.n),
      rows: rows.map((r) => ({
        id: r.id, license: r.license_key, companyName: r.company_name, saleName: r.salesperson_id, saleManName: r.sale_man_name,
        state: r.state, validBeginTime: r.valid_begin, validEndTime: r.valid_end, type: r.type === 1 ? 1 : 0,
      })),
    };
  }

  private async requireSalesperson(id: number) {
    const found = await this.deps.db.selectFrom('salespeople').select('id').where('id', '=', id).executeTakeFirst();
    if (!found) throw new AppError('saleMan.notFound');
  }

  async add(caller: SessionUser, fields: Fields, ip: string): Promise<string> {
    requireType(caller, '0');
    await this.requireSalesperson(fields.saleName);
    const key = generateLicenseKey();
    await this.deps.db
      .insertInto('licenses')
      .values({ license_key: key, company_name: fields.companyName, salesperson_id: fields.saleName, state: fields.state, type: fields.type, valid_begin: fields.validBeginTime, valid_end: fields.validEndTime, used_by_org_id: null, created_at: this.deps.clock.now() })
      .execute();
    await this.deps.log.recordBy(caller, ip, 'addLicense', `created license ${key} for ${fields.companyName}`);
    return key;
  }

  private async find(id: number) {
    const license = await this.deps.db.selectFrom('licenses').selectAll().where('id', '=', id).executeTakeFirst();
    if (!license) throw new AppError('license.notFound', 404);
    return license;
  }

  async update(caller: SessionUser, id: number, fields: Fields, ip: string): Promise<void> {
    requireType(caller, '0');
    const license = await this.find(id);
    await this.requireSalesperson(fields.saleName);
    const used = license.state === 0;
    await this.deps.db
      .updateTable('licenses')
      .set({
        company_name: fields.companyName, salesperson_id: fields.saleName, valid_begin: fields.validBeginTime, valid_end: fields.validEndTime,
        // A used license is saved with state 0, and its type no longer changes.
        state: used ? 0 : fields.state,
        type: used ? license.type : fields.type,
      })
      .where('id', '=', id)
      .execute();
    await this.deps.log.recordBy(caller, ip, 'updateLicense', `changed license ${license.license_key}`);
  }

  async delete(caller: SessionUser, id: number, ip: string): Promise<void> {
    requireType(caller, '0');
    const license = await this.find(id);
    if (license.state === 0) throw new AppError('license.usedLocked');
    await this.deps.db.deleteFrom('licenses').where('id', '=', id).where('state', '!=', 0).execute();
    await this.deps.log.recordBy(caller, ip, 'deleteLicense', `deleted license ${license.license_key}`);
  }

}
