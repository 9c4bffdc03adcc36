import type { accounts } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { isUniqueViolation } from '../../db/errors.js';
import { pageOffset } from '../../http/access.js';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { SalespersonRepository } from './repository.js';

type Fields = { name: string; companyName: string; phone: string; jobState: 0 | 1 };

/** Salespeople are records the platform keeps (type 0 only), not accounts. */
export class SalespersonService {
  constructor(
    private readonly deps: { salespeople: SalespersonRepository; log: OperationLog; clock: Clock },
  ) {}

  async list(
    caller: SessionUser,
    params: { start: number; size: number; name?: string },
  ): Promise<{ rows: accounts.Salesperson[]; total: number }> {
    const { rows, total } = await this.deps.salespeople.page(
      { name: params.name },
      pageOffset(params.start, params.size),
      params.size,
    );
    return {
      total,
      rows: rows.map((r) => ({
        id: r.id,
        work_number: r.work_number,
        name: r.name,
        companyName: r.company_name,
        phone: r.phone,
        jobState: r.job_state === 1 ? 1 : 0,
      })),
    };
  }

  async add(caller: SessionUser, fields: Fields & { work_number: string }, ip: string): Promise<void> {
    try {
      await this.deps.salespeople.insert({
        work_number: fields.work_number,
        name: fields.name,
        company_name: fields.companyName,
        phone: fields.phone,
        job_state: fields.jobState,
        created_at: this.deps.clock.now(),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new Refusal('saleMan.workNumberTaken');
      throw error;
    }
    await this.deps.log.recordBy(caller, ip, 'addSalesperson', {
      k: 'salesperson',
      v: { number: fields.work_number, name: fields.name },
    });
  }

  async update(caller: SessionUser, id: number, fields: Fields, ip: string): Promise<void> {
    const updated = await this.deps.salespeople.update(id, {
      name: fields.name,
      company_name: fields.companyName,
      phone: fields.phone,
      job_state: fields.jobState,
    });
    if (!updated) throw new Refusal('saleMan.notFound', 'notFound');
    const row = await this.deps.salespeople.find(id);
    await this.deps.log.recordBy(caller, ip, 'updateSalesperson', {
      k: 'salesperson',
      v: { number: row?.work_number ?? '', name: fields.name },
    });
  }

  async delete(caller: SessionUser, id: number, ip: string): Promise<void> {
    if (await this.deps.salespeople.hasLicenses(id)) throw new Refusal('saleMan.inUse');
    const row = await this.deps.salespeople.find(id);
    if (!row || !(await this.deps.salespeople.delete(id))) throw new Refusal('saleMan.notFound', 'notFound');
    await this.deps.log.recordBy(caller, ip, 'deleteSalesperson', {
      k: 'salesperson',
      v: { number: row.work_number, name: row.name },
    });
  }
}
