import crypto from 'node:crypto';
import type { accounts } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { pageOffset } from '../../http/access.js';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { LicenseRepository } from './repository.js';

type Fields = {
  companyName: string;
  saleName: number;
  state: number;
  validBeginTime: number;
  validEndTime: number;
  type: 0 | 1;
};

const KEY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** PF-XXXX-XXXX-XXXX-XXXX: 80 random bits in an alphabet without look-alike characters. */
export function generateLicenseKey(): string {
  const bytes = crypto.randomBytes(16);
  const chars = [...bytes].map((b) => KEY_ALPHABET[b % KEY_ALPHABET.length]);
  return `PF-${[0, 4, 8, 12].map((i) => chars.slice(i, i + 4).join('')).join('-')}`;
}

/** Licenses (type 0 only): generated keys; a used license keeps state 0 and cannot be deleted. */
export class LicenseService {
  constructor(private readonly deps: { licenses: LicenseRepository; log: OperationLog; clock: Clock }) {}

  async list(
    caller: SessionUser,
    params: { start: number; size: number; companyName?: string },
  ): Promise<{ rows: accounts.License[]; total: number }> {
    const { rows, total } = await this.deps.licenses.page(
      { companyName: params.companyName },
      pageOffset(params.start, params.size),
      params.size,
    );
    return {
      total,
      rows: rows.map((r) => ({
        id: r.id,
        license: r.license_key,
        companyName: r.company_name,
        saleName: r.salesperson_id,
        saleManName: r.sale_man_name,
        state: r.state,
        validBeginTime: r.valid_begin,
        validEndTime: r.valid_end,
        type: r.type === 1 ? 1 : 0,
      })),
    };
  }

  private async requireSalesperson(id: number) {
    if (!(await this.deps.licenses.salespersonExists(id))) throw new Refusal('saleMan.notFound');
  }

  async add(caller: SessionUser, fields: Fields, ip: string): Promise<string> {
    await this.requireSalesperson(fields.saleName);
    const key = generateLicenseKey();
    await this.deps.licenses.insert({
      license_key: key,
      company_name: fields.companyName,
      salesperson_id: fields.saleName,
      state: fields.state,
      type: fields.type,
      valid_begin: fields.validBeginTime,
      valid_end: fields.validEndTime,
      used_by_org_id: null,
      created_at: this.deps.clock.now(),
    });
    await this.deps.log.recordBy(caller, ip, 'addLicense', {
      k: 'license',
      v: { license: key, company: fields.companyName },
    });
    return key;
  }

  private async find(id: number) {
    const license = await this.deps.licenses.findById(id);
    if (!license) throw new Refusal('license.notFound', 'notFound');
    return license;
  }

  async update(caller: SessionUser, id: number, fields: Fields, ip: string): Promise<void> {
    const license = await this.find(id);
    await this.requireSalesperson(fields.saleName);
    const used = license.state === 0;
    await this.deps.licenses.update(id, {
      company_name: fields.companyName,
      salesperson_id: fields.saleName,
      valid_begin: fields.validBeginTime,
      valid_end: fields.validEndTime,
      // A used license is saved with state 0, and its type no longer changes.
      state: used ? 0 : fields.state,
      type: used ? license.type : fields.type,
    });
    await this.deps.log.recordBy(caller, ip, 'updateLicense', {
      k: 'license',
      v: { license: license.license_key, company: fields.companyName },
    });
  }

  async delete(caller: SessionUser, id: number, ip: string): Promise<void> {
    const license = await this.find(id);
    if (license.state === 0) throw new Refusal('license.usedLocked');
    await this.deps.licenses.deleteUnused(id);
    await this.deps.log.recordBy(caller, ip, 'deleteLicense', {
      k: 'license',
      v: { license: license.license_key, company: license.company_name },
    });
  }
}
