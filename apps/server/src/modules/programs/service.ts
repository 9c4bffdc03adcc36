import { oplog, programs, type materials } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { pageOffset } from '../../http/access.js';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { ProgramRecord, ProgramRepository, StepRecord } from './repository.js';

type ProgramStatus = programs.ProgramStatus;

/** What the programs need of the materials library (the programs entry hands it over). */
export interface MaterialLookup {
  findMany(orgId: number, ids: number[]): Promise<materials.Material[]>;
}

export interface ProgramFields {
  name: string;
  playTime: number;
  content: programs.ProgramItem[];
  materialIds?: number[] | undefined;
}

/** The refusal for someone who may not act on a program in this status. */
const WAITS_FOR: Record<ProgramStatus, string> = {
  create: 'program.waitsForCreator',
  submitApproval: 'program.waitsForLevel1',
  approval1: 'program.waitsForLevel2',
  approval2: 'program.alreadyApproved',
};

const UNDER_REVIEW: readonly ProgramStatus[] = ['submitApproval', 'approval1'];

const materialIdsOf = (items: programs.ProgramItem[]) => [
  ...new Set(items.flatMap((item) => (item.type === 'web' ? [] : [item.materialId]))),
];

/**
 * Programs and their two-level approval (spec 2 sections 3-6). The router admits the program
 * roles of each call; this service decides, from the program's status, who acts next: a creator
 * (role 0) submits a draft, a first-level approver (1) passes or refuses a submitted program, a
 * second-level approver (2) one that passed level 1. Whoever created or last edited a program
 * never approves it. Every change is written over the revision it was decided on.
 */
export class ProgramService {
  constructor(
    private readonly deps: {
      repository: ProgramRepository;
      materials: MaterialLookup;
      log: OperationLog;
      clock: Clock;
    },
  ) {}

  async page(orgId: number, p: { start: number; size: number; name?: string | undefined }) {
    const { rows, total } = await this.deps.repository.page(
      orgId,
      pageOffset(p.start, p.size),
      p.size,
      p.name || undefined,
    );
    const media = await this.deps.materials.findMany(orgId, [
      ...new Set(rows.flatMap((r) => materialIdsOf(parseItems(r)))),
    ]);
    const last = await this.deps.repository.lastSteps(orgId, rows);
    return { list: rows.map((row) => toProgram(row, media, last.get(row.id))), total };
  }

  /** A program of the organisation (another company's id reads as unknown). */
  async get(orgId: number, id: number) {
    const row = await this.deps.repository.find(orgId, id);
    if (!row) throw new Refusal('program.notFound', 'notFound');
    const media = await this.deps.materials.findMany(orgId, materialIdsOf(parseItems(row)));
    return { row, program: toProgram(row, media, undefined), media };
  }

  async create(caller: SessionUser, ip: string, fields: ProgramFields): Promise<number> {
    const write = await this.checked(caller.orgId, fields);
    const id = await this.deps.repository.insert(
      caller.orgId,
      write,
      { id: caller.id, name: caller.userName },
      this.deps.clock.now(),
    );
    await this.deps.log.recordBy(caller, ip, 'program.insert', { k: 'program', v: { name: write.name } });
    return id;
  }

  /** Saves an edit; true when the program was approved and now needs approval again. */
  async update(caller: SessionUser, ip: string, id: number, fields: ProgramFields): Promise<boolean> {
    const row = await this.deps.repository.find(caller.orgId, id);
    if (!row) throw new Refusal('program.notFound', 'notFound');
    if (UNDER_REVIEW.includes(row.status as ProgramStatus))
      throw new Refusal('program.underReview', 'conflict');
    const write = await this.checked(caller.orgId, fields);
    const wasApproved = row.status === 'approval2';
    const saved = await this.deps.repository.update(caller.orgId, id, row.revision, write, {
      byId: caller.id,
      newRound: wasApproved,
      now: this.deps.clock.now(),
    });
    if (!saved) throw new Refusal('program.changed', 'conflict');
    await this.deps.log.recordBy(caller, ip, 'program.update', {
      k: wasApproved ? 'programApprovalWithdrawn' : 'program',
      v: { name: write.name },
    });
    return wasApproved;
  }

  async remove(caller: SessionUser, ip: string, id: number): Promise<void> {
    const row = await this.deps.repository.find(caller.orgId, id);
    if (!row) throw new Refusal('program.notFound', 'notFound');
    if (UNDER_REVIEW.includes(row.status as ProgramStatus))
      throw new Refusal('program.underReview', 'conflict');
    if (!(await this.deps.repository.remove(caller.orgId, id, row.revision)))
      throw new Refusal('program.changed', 'conflict');
    await this.deps.log.recordBy(caller, ip, 'program.delete', { k: 'program', v: { name: row.name } });
  }

  /** One approval step (submit, pass or refuse); returns the program's new status. */
  async act(
    caller: SessionUser,
    ip: string,
    id: number,
    status: number,
    reason: string,
  ): Promise<ProgramStatus> {
    const row = await this.deps.repository.find(caller.orgId, id);
    if (!row) throw new Refusal('program.notFound', 'notFound');
    const from = row.status as ProgramStatus;
    const flow = programs.APPROVAL_FLOW[from];
    if (!flow || caller.programRole !== flow.role) throw new Refusal(WAITS_FOR[from], 'conflict');
    const submitting = flow.role === programs.PROGRAM_ROLES.creator;
    if (submitting && status !== 1) throw new Refusal('program.submitIsPass', 'invalid');
    if (!submitting && (caller.id === row.created_by || caller.id === row.updated_by))
      throw new Refusal('program.selfApproval', 'forbidden');
    const to: ProgramStatus = status === 1 ? flow.pass : 'create';
    const moved = await this.deps.repository.transition(
      caller.orgId,
      id,
      { status: from, revision: row.revision },
      to,
      {
        userId: caller.id,
        userName: caller.userName,
        role: flow.role,
        status,
        reason,
        at: this.deps.clock.now(),
      },
      submitting,
    );
    if (!moved) throw new Refusal('program.changed', 'conflict');
    const step = submitting
      ? oplog.term('approval.submit')
      : oplog.term(status === 1 ? 'approval.pass' : 'approval.refuse', { level: flow.role });
    await this.deps.log.recordBy(caller, ip, 'program.approval', {
      k: 'programApproval',
      v: { name: row.name, step, reason },
    });
    return to;
  }

  /** The steps of the program's current approval round. */
  async steps(orgId: number, id: number): Promise<programs.ApprovalStep[]> {
    const row = await this.deps.repository.find(orgId, id);
    if (!row) throw new Refusal('program.notFound', 'notFound');
    return (await this.deps.repository.steps(orgId, id, row.round)).map(toStep);
  }

  /** Whether a program of the organisation plays the material (the materials library asks before deleting). */
  materialInUse(orgId: number, materialId: number) {
    return this.deps.repository.materialInUse(orgId, materialId);
  }

  /** Every material must be the company's and of the item's kind; `materialIds`, when given, must match. */
  private async checked(orgId: number, fields: ProgramFields) {
    const ids = materialIdsOf(fields.content);
    if (fields.materialIds && !sameSet(fields.materialIds, ids))
      throw new Refusal('program.materialNotFound', 'invalid');
    const found = new Map((await this.deps.materials.findMany(orgId, ids)).map((m) => [m.materialId, m]));
    for (const item of fields.content) {
      if (item.type === 'web') continue;
      const material = found.get(item.materialId);
      if (!material) throw new Refusal('program.materialNotFound', 'notFound');
      if (material.fileType !== programs.FILE_TYPE_OF_ITEM[item.type])
        throw new Refusal('program.materialKind', 'invalid');
    }
    return {
      name: fields.name,
      playTime: fields.playTime,
      content: JSON.stringify(fields.content),
      materialIds: ids,
    };
  }
}

const sameSet = (a: number[], b: number[]) => a.length === b.length && a.every((n) => b.includes(n));

export function parseItems(row: ProgramRecord): programs.ProgramItem[] {
  // Written only by this service after validation; a row that no longer parses is a server fault.
  return programs.programContent.parse(row.content);
}

function toProgram(
  row: ProgramRecord,
  media: materials.Material[],
  last: StepRecord | undefined,
): programs.Program {
  const items = parseItems(row);
  const ids = materialIdsOf(items);
  return {
    programId: row.id,
    name: row.name,
    creationDate: Number(row.created_at),
    updateTime: Number(row.updated_at),
    status: row.status as ProgramStatus,
    content: row.content,
    items,
    playTime: row.play_time,
    materialIds: ids.join(','),
    media: media
      .filter((m) => ids.includes(m.materialId))
      .map((m) => ({
        materialId: m.materialId,
        fileName: m.fileName,
        fileType: m.fileType,
        format: m.format,
        fileSize: m.fileSize,
      })),
    creatorName: row.created_by_name,
    lastStep: last
      ? { role: last.role, status: last.status, reason: last.reason, userName: last.user_name }
      : null,
  };
}

function toStep(row: StepRecord): programs.ApprovalStep {
  return {
    id: row.id,
    userName: row.user_name,
    addTime: Number(row.added_at),
    reason: row.reason,
    status: row.status,
    role: String(row.role),
  };
}
