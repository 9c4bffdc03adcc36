import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ApprovalStepsTable, ProgramsTable } from '../../db/schema-programs.js';
import { containsFolded } from '../../db/search.js';

export type ProgramRecord = Selectable<ProgramsTable>;
export type StepRecord = Selectable<ApprovalStepsTable>;

export interface ProgramWrite {
  name: string;
  playTime: number;
  content: string;
  materialIds: number[];
}

export interface NewStep {
  userId: number;
  userName: string;
  role: number;
  status: number;
  reason: string;
  at: number;
}

/** Programs of one organisation and their approval steps; every query is scoped by org_id. */
export class ProgramRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async page(orgId: number, offset: number, size: number, name?: string) {
    let query = this.db.selectFrom('programs').where('org_id', '=', orgId);
    if (name) query = query.where(containsFolded('name', name));
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(size).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  find(orgId: number, id: number): Promise<ProgramRecord | undefined> {
    return this.db
      .selectFrom('programs')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async insert(
    orgId: number,
    program: ProgramWrite,
    by: { id: number; name: string },
    now: number,
  ): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('programs')
        .values({
          org_id: orgId,
          name: program.name,
          play_time: program.playTime,
          status: 'create',
          content: program.content,
          created_by: by.id,
          created_by_name: by.name,
          updated_by: by.id,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await this.linkMaterials(trx, orgId, id, program.materialIds);
      return id;
    });
  }

  /**
   * Writes an edit over the revision the service read (false when someone changed the program in
   * between): new content, status back to draft, and a new, empty approval round when asked.
   */
  async update(
    orgId: number,
    id: number,
    revision: number,
    program: ProgramWrite,
    change: { byId: number; newRound: boolean; now: number },
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('programs')
        .set((eb) => ({
          name: program.name,
          play_time: program.playTime,
          content: program.content,
          status: 'create',
          updated_by: change.byId,
          updated_at: change.now,
          revision: eb('revision', '+', 1),
          round: change.newRound ? eb('round', '+', 1) : eb.ref('round'),
        }))
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .where('revision', '=', revision)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await trx.deleteFrom('program_materials').where('program_id', '=', id).execute();
      await this.linkMaterials(trx, orgId, id, program.materialIds);
      return true;
    });
  }

  /** Deletes over the revision read (false when it changed or is gone); steps go with it. */
  async remove(orgId: number, id: number, revision: number): Promise<boolean> {
    return this.db
      .transaction()
      .execute(async (trx) => {
        await trx
          .deleteFrom('approval_steps')
          .where('org_id', '=', orgId)
          .where('program_id', '=', id)
          .execute();
        await trx
          .deleteFrom('program_materials')
          .where('org_id', '=', orgId)
          .where('program_id', '=', id)
          .execute();
        const result = await trx
          .deleteFrom('programs')
          .where('org_id', '=', orgId)
          .where('id', '=', id)
          .where('revision', '=', revision)
          .executeTakeFirst();
        if (Number(result.numDeletedRows) !== 1) throw new StaleRevision();
        return true;
      })
      .catch((error: unknown) => {
        if (error instanceof StaleRevision) return false;
        throw error;
      });
  }

  /**
   * One approval step: moves the program from `from` to `to` only if it still is at the revision
   * the service decided on, and records the step, in one transaction. Of two approvers acting at
   * once exactly one moves it; the other gets false and nothing is written.
   */
  async transition(
    orgId: number,
    id: number,
    expected: { status: string; revision: number },
    to: string,
    step: NewStep,
    newRound: boolean,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('programs')
        .set((eb) => ({
          status: to,
          revision: eb('revision', '+', 1),
          round: newRound ? eb('round', '+', 1) : eb.ref('round'),
        }))
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .where('status', '=', expected.status)
        .where('revision', '=', expected.revision)
        .returning('round')
        .executeTakeFirst();
      if (!moved) return false;
      await trx
        .insertInto('approval_steps')
        .values({
          program_id: id,
          org_id: orgId,
          round: moved.round,
          user_id: step.userId,
          user_name: step.userName,
          role: step.role,
          status: step.status,
          reason: step.reason,
          from_status: expected.status,
          to_status: to,
          added_at: step.at,
        })
        .execute();
      return true;
    });
  }

  /** The steps of a program's round, oldest first. */
  steps(orgId: number, programId: number, round: number): Promise<StepRecord[]> {
    return this.db
      .selectFrom('approval_steps')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('program_id', '=', programId)
      .where('round', '=', round)
      .orderBy('id')
      .execute();
  }

  /** The latest step of each program's current round. */
  async lastSteps(orgId: number, programs: ProgramRecord[]): Promise<Map<number, StepRecord>> {
    if (!programs.length) return new Map();
    const rows = await this.db
      .selectFrom('approval_steps')
      .selectAll()
      .where('org_id', '=', orgId)
      .where(
        'program_id',
        'in',
        programs.map((p) => p.id),
      )
      .orderBy('id')
      .execute();
    const rounds = new Map(programs.map((p) => [p.id, p.round]));
    const last = new Map<number, StepRecord>();
    for (const row of rows) if (rounds.get(row.program_id) === row.round) last.set(row.program_id, row);
    return last;
  }

  /** True when a program of the organisation plays the material. */
  async materialInUse(orgId: number, materialId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('program_materials')
      .select('program_id')
      .where('org_id', '=', orgId)
      .where('material_id', '=', materialId)
      .executeTakeFirst();
    return row !== undefined;
  }

  private async linkMaterials(trx: Kysely<Database>, orgId: number, programId: number, ids: number[]) {
    if (!ids.length) return;
    await trx
      .insertInto('program_materials')
      .values(ids.map((materialId) => ({ program_id: programId, org_id: orgId, material_id: materialId })))
      .execute();
  }
}

class StaleRevision extends Error {}
