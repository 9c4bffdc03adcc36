import type { Kysely } from 'kysely';
import type { accounts } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { containsFolded } from '../../db/search.js';
import { pageOffset, requireType } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { SessionUser } from '../../http/router.js';
import type { OperationLog } from '../operation-log/repository.js';

type Fields = { name: string; companyName: string; phone: string; jobState: 0 | 1 };

/** Salespeople are records the platform keeps (type 0 only), not accounts. */
export class SalespersonService {
  constructor(private readonly deps: { db: Kysely<Database>; log: OperationLog; clock: Clock }) {}

  async list(caller: SessionUser, params: { start: number; size: number; name?: string }): Promise<{ rows: accounts.Salesperson[]; total: number }> {
    requireType(caller, '0');
    const base = () => {
      const query = this.deps.db.selectFrom('salespeople');
      return params.name ? query.where(containsFolded('name', params.name)) : query;
    };
    const [rows, count] = await Promise.all([
      base().selectAll().orderBy('id').limit(params.size).offset(pageOffset(params.start, params.size)).execute(),
      base().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      total: Number(count.n),
      rows: rows.map((r) => ({ id: r.id, work_number: r.work_number, name: r.name, companyName: r.company_name, phone: r.phone, jobState: r.job_state === 1 ? 1 : 0 })),
    };
  }

  async add(caller: SessionUser, fields: Fields & { work_number: string }, ip: string): Promise<void> {
    requireType(caller, '0');
    try {
      await this.deps.db
        .insertInto('salespeople')
        .values({ work_number: fields.work_number, name: fields.name, company_name: fields.companyName, phone: fields.phone, job_state: fields.jobState, created_at: this.deps.clock.now() })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('saleMan.workNumberTaken');
      throw error;
    }
    await this.deps.log.recordBy(caller, ip, 'addSalesperson', `added salesperson ${fields.work_number} ${fields.name}`);
  }

  async update(caller: SessionUser, id: number, fields: Fields, ip: string): Promise<void> {
    requireType(caller, '0');
    const result = await this.deps.db
      .updateTable('salespeople')
      .set({ name: fields.name, company_name: fields.companyName, phone: fields.phone, job_state: fields.jobState })
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new AppError('saleMan.notFound', 404);
    await this.deps.log.recordBy(caller, ip, 'updateSalesperson', `changed salesperson ${id}`);
  }

  async delete(caller: SessionUser, id: number, ip: string): Promise<void> {
    requireType(caller, '0');
    const referenced = await this.deps.db.selectFrom('licenses').select('id').where('salesperson_id', '=', id).executeTakeFirst();
    if (referenced) throw new AppError('saleMan.inUse');
    const result = await this.deps.db.deleteFrom('salespeople').where('id', '=', id).executeTakeFirst();
    if (Number(result.numDeletedRows) !== 1) throw new AppError('saleMan.notFound', 404);
    await this.deps.log.recordBy(caller, ip, 'deleteSalesperson', `deleted salesperson ${id}`);
  }

}
