import { z } from 'zod';
import { defineCall } from '../call.js';
import { users } from '../access.js';
import { emptyReply, itemReply, listReply } from '../envelope.js';
import { pageParams } from '../rules.js';
import { MEDIA_FORMATS } from './materials.js';
import { commaIds, panelMatching, targetKinds } from '../device/selection.js';

// Spec 2 sections 3-7 name these calls; list, insert, update and delete paths are not shown and
// are chosen here in its style. A program is a playlist a panel plays (as in Xibo or MagicInfo).

const tag = 'programs';

/** Program approval (spec 2 section 4): draft, submitted, passed level 1, passed level 2. */
export const PROGRAM_STATUSES = ['create', 'submitApproval', 'approval1', 'approval2'] as const;
export type ProgramStatus = (typeof PROGRAM_STATUSES)[number];
/** Program roles (spec 2 section 6): 0 creator, 1 first-level approver, 2 second-level approver. */
export const PROGRAM_ROLES = { creator: 0, level1: 1, level2: 2 } as const;

/** Who acts on a program in each status, and where a pass leads. */
export const APPROVAL_FLOW: Record<ProgramStatus, { role: number; pass: ProgramStatus } | undefined> = {
  create: { role: 0, pass: 'submitApproval' },
  submitApproval: { role: 1, pass: 'approval1' },
  approval1: { role: 2, pass: 'approval2' },
  approval2: undefined,
};

export const DEFAULT_PLAY_TIME = 3600;
export const REASON_MAX = 200;
export const NAME_MAX = 100;
export const ITEMS_MAX = 100;
export const ITEM_DURATION_MAX = 24 * 3600;
export const PLAY_TIME_MAX = 7 * 24 * 3600;
export const ITEM_TYPES = ['image', 'video', 'audio', 'web'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];
/** The material file type each media item plays (materials.MATERIAL_FILE_TYPES). */
export const FILE_TYPE_OF_ITEM: Record<Exclude<ItemType, 'web'>, number> = { image: 1, audio: 2, video: 3 };

const webUrl = z
  .string()
  .trim()
  .max(2048, { error: 'program.urlInvalid' })
  .refine(
    (text) => {
      try {
        const url = new URL(text);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
      } catch {
        return false;
      }
    },
    { error: 'program.urlInvalid' },
  );

const duration = z
  .number({ error: 'program.durationInvalid' })
  .int({ error: 'program.durationInvalid' })
  .min(1, { error: 'program.durationInvalid' })
  .max(ITEM_DURATION_MAX, { error: 'program.durationInvalid' });

/** One entry of a playlist: a material of the company, or a web page, shown for `duration` seconds. */
export const programItem = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.enum(['image', 'video', 'audio']),
      materialId: z.number({ error: 'program.materialNotFound' }).int().positive(),
      duration,
    }),
    z.object({ type: z.literal('web'), url: webUrl, duration }),
  ],
  { error: 'program.contentInvalid' },
);
export type ProgramItem = z.infer<typeof programItem>;

/** `content` travels as JSON text (a form field): the ordered items. */
export const programContent = z
  .string({ error: 'program.itemsEmpty' })
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'program.contentInvalid' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(programItem, { error: 'program.contentInvalid' })
      .min(1, { error: 'program.itemsEmpty' })
      .max(ITEMS_MAX, { error: 'program.tooManyItems' }),
  );

const id = (error: string) =>
  z.coerce.number({ error }).int({ error }).positive({ error }).max(2_147_483_647, { error });
const programId = id('program.notFound');

const idList = commaIds;

const name = z
  .string({ error: 'program.nameNull' })
  .trim()
  .min(1, { error: 'program.nameNull' })
  .max(NAME_MAX, { error: 'program.nameTooLong' });

const playTime = z
  .string({ error: 'program.playTimeNull' })
  .trim()
  .min(1, { error: 'program.playTimeNull' })
  .transform(Number)
  .pipe(
    z
      .number({ error: 'program.playTimeInvalid' })
      .int({ error: 'program.playTimeInvalid' })
      .min(1, { error: 'program.playTimeInvalid' })
      .max(PLAY_TIME_MAX, { error: 'program.playTimeInvalid' }),
  );

const programFields = z.object({
  name,
  playTime,
  content: programContent,
  /** The spec's field: optional, and when given it must name exactly the materials of `content`. */
  materialIds: idList('program.materialNotFound', 'program.materialNotFound').optional(),
});

/** A material as a program shows it (name and format, for the editor and the preview). */
export const programMedia = z.object({
  materialId: z.number().int(),
  fileName: z.string(),
  fileType: z.number().int(),
  format: z.enum(MEDIA_FORMATS),
  fileSize: z.number().int(),
});

export const program = z.object({
  programId: z.number().int(),
  name: z.string(),
  /** Epoch ms. */
  creationDate: z.number(),
  updateTime: z.number(),
  status: z.enum(PROGRAM_STATUSES),
  /** The items as JSON text (spec field). */
  content: z.string(),
  items: z.array(programItem),
  playTime: z.number().int(),
  materialIds: z.string(),
  /** The materials the items name (missing ones are absent). */
  media: z.array(programMedia),
  creatorName: z.string(),
  /** The latest step of the current approval round, if any. */
  lastStep: z
    .object({ role: z.number().int(), status: z.number().int(), reason: z.string(), userName: z.string() })
    .nullable(),
});
export type Program = z.infer<typeof program>;

/** An approval step (spec 2 section 3): role 0 is the submission, roles 1 and 2 the levels; status 1 pass, 0 refuse. */
export const approvalStep = z.object({
  id: z.number().int(),
  userName: z.string(),
  addTime: z.number(),
  reason: z.string(),
  status: z.number().int(),
  role: z.string(),
});
export type ApprovalStep = z.infer<typeof approvalStep>;

/** Everyone who operates devices reads programs; the program role decides what else they may do. */
const readers = users(['2', '4'], { refusal: 'device.customersOnly' });
const creators = users(['2', '4'], {
  programRoles: [0],
  refusal: 'device.customersOnly',
  programRoleRefusal: 'program.creatorsOnly',
});

export const listPrograms = defineCall({
  method: 'GET',
  path: '/program/listProgram',
  summary: 'Programs, newest first; name searches the name',
  tag,
  access: readers,
  params: pageParams.extend({ name: z.string().trim().max(NAME_MAX).optional() }),
  reply: listReply(program),
});

export const insertProgram = defineCall({
  method: 'POST',
  path: '/program/insert',
  summary: 'New program (role 0): name, playTime, content (JSON items); a draft',
  tag,
  access: creators,
  params: programFields,
  reply: itemReply(z.object({ programId: z.number().int() })),
});

export const updateProgram = defineCall({
  method: 'POST',
  path: '/program/update',
  summary: 'Edit a draft or approved program (role 0); approval starts again',
  tag,
  access: creators,
  params: programFields.extend({ programId }),
  reply: emptyReply,
});

export const deleteProgram = defineCall({
  method: 'POST',
  path: '/program/delete',
  summary: 'Delete a draft or approved program (role 0)',
  tag,
  access: creators,
  params: z.object({ programId }),
  reply: emptyReply,
});

export const listApproval = defineCall({
  method: 'GET',
  path: '/approval/listApproval',
  summary: 'Steps of the current approval round',
  tag,
  access: readers,
  params: z.object({ programId }),
  reply: listReply(approvalStep),
});

export const approvalProcess = defineCall({
  method: 'POST',
  path: '/approval/approvalProcess',
  summary: 'Submit (role 0), pass or refuse (roles 1, 2) with a reason',
  tag,
  access: readers,
  params: z.object({
    programId,
    status: z.enum(['0', '1'], { error: 'program.statusInvalid' }).transform(Number),
    reason: z
      .string({ error: 'program.reasonNull' })
      .trim()
      .min(1, { error: 'program.reasonNull' })
      .max(REASON_MAX, { error: 'program.reasonTooLong' }),
  }),
  reply: itemReply(z.object({ status: z.enum(PROGRAM_STATUSES) })),
});

/** A panel's state in a publish task, as the console names it (rollout target states of kind program). */
export const PUBLISH_STATES = {
  queued: 'queued',
  waiting: 'queued',
  sent: 'sent',
  downloading: 'downloading',
  verifying: 'verifying',
  installing: 'ready',
  succeeded: 'playing',
  /** Not a target state: a succeeded row whose panel reported `finished` (its play time is over). */
  finished: 'finished',
  failed: 'failed',
  cancelled: 'cancelled',
  skipped: 'skipped',
} as const;
export type PublishState = (typeof PUBLISH_STATES)[keyof typeof PUBLISH_STATES];

const publishers = creators;

export const publishProgram = defineCall({
  method: 'POST',
  path: '/program/packZip',
  summary:
    'Publish an approved program (role 0) to deviceIds, tagIds or matching (JSON body; at most 10,000), one of them',
  tag,
  access: publishers,
  params: z
    .object({
      programId,
      deviceIds: idList('device.notFound', 'program.chooseDevice').default([]),
      tagIds: idList('label.notFound', 'program.chooseDevice').default([]),
      matching: panelMatching.optional(),
    })
    .refine((p) => targetKinds(p) === 1, { error: 'program.chooseDevice' }),
  reply: itemReply(
    z.object({ taskId: z.number().int(), deviceCount: z.number().int(), skippedCount: z.number().int() }),
  ),
});

export const publishTask = z.object({
  taskId: z.number().int(),
  createTime: z.number(),
  creatorName: z.string(),
  state: z.string(),
  total: z.number().int(),
  /** Panels per console state. */
  counts: z.record(z.string(), z.number().int()),
});
export type PublishTask = z.infer<typeof publishTask>;

export const listPublishTasks = defineCall({
  method: 'GET',
  path: '/program/publishTasks',
  summary: "A program's publish tasks with panels by state",
  tag,
  access: readers,
  params: z.object({ programId }),
  reply: listReply(publishTask),
});

export const publishTarget = z.object({
  deviceId: z.number().int(),
  deviceName: z.string(),
  deviceKey: z.string(),
  state: z.enum([
    'queued',
    'sent',
    'downloading',
    'verifying',
    'ready',
    'playing',
    'finished',
    'failed',
    'cancelled',
    'skipped',
  ]),
  /** While downloading: the share of the program's files fetched. */
  percent: z.number().int().nullable(),
  /** Why it failed or was skipped (download, checksum, unsupported, expired, disabled, ...). */
  reason: z.string(),
  updateTime: z.number(),
});
export type PublishTarget = z.infer<typeof publishTarget>;

export const listPublishTargets = defineCall({
  method: 'GET',
  path: '/program/publishTargets',
  summary: "A publish task's panels and their states",
  tag,
  access: readers,
  params: pageParams.extend({ taskId: id('program.taskNotFound') }),
  reply: listReply(publishTarget),
});

export const cancelPublishTask = defineCall({
  method: 'POST',
  path: '/program/cancelTask',
  summary:
    'Cancel a publish task (role 0): every panel not yet finished stops: a download in progress stops, a ready or playing panel stops playing (PROGRAM_STOP)',
  tag,
  access: publishers,
  params: z.object({ taskId: id('program.taskNotFound') }),
  reply: itemReply(z.object({ cancelled: z.number().int() })),
});

export const cancelPublishDevice = defineCall({
  method: 'POST',
  path: '/program/cancelTaskDevice',
  summary:
    'Cancel one panel of a publish task (role 0): it stops downloading or playing; refused once it finished, failed or was cancelled',
  tag,
  access: publishers,
  params: z.object({ taskId: id('program.taskNotFound'), deviceId: id('device.notFound') }),
  reply: emptyReply,
});

export const importZip = defineCall({
  method: 'POST',
  path: '/program/importZip',
  summary: 'Multipart file importZip: a program zip, checked whole, becomes a new draft (role 0)',
  tag,
  access: creators,
  params: z.object({}),
  reply: itemReply(z.object({ programId: z.number().int(), materialCount: z.number().int() })),
});

export const exportZip = defineCall({
  method: 'POST',
  path: '/program/exportZip',
  summary: 'The address of an approved program as a zip (program.json and media/)',
  tag,
  access: readers,
  params: z.object({ programId }),
  reply: itemReply(z.object({ url: z.string() })),
});

export const programZip = defineCall({
  method: 'GET',
  path: '/program/zip',
  summary: 'An approved program as a zip',
  tag,
  access: readers,
  params: z.object({ programId }),
  reply: z.custom<Uint8Array | AsyncIterable<Uint8Array>>(
    (value) =>
      value instanceof Uint8Array ||
      (typeof value === 'object' && value !== null && Symbol.asyncIterator in value),
  ),
  produces: 'application/zip',
});
