import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { itemReply, listReply } from '../envelope.js';
import { requiredText } from '../rules.js';
import { isRecordId, MAX_RECORD_ID } from '../ids.js';

const tag = 'notifications';

/** Spec 2 sections 4, 5 and 9. */
export const NOTICE_TITLE_MAX_WIDTH = 30;
export const NOTICE_TEXT_MAX = 200;
export const NOTICE_DEFAULT_TIMES = 3;
export const NOTICE_MAX_TIMES = 100;
export const NOTICE_DEFAULT_COLOR = '#000000';
export const NOTICE_LEVELS = { emergency: 0, ordinary: 1 } as const;
export const NOTICE_POSITIONS = ['top', 'bottom'] as const;
export type NoticePosition = (typeof NOTICE_POSITIONS)[number];
/** Emergency audio (materialType): 1 fire, 2 earthquake, 3 air defense, 0 a custom uploaded audio. */
export const NOTICE_AUDIO = { custom: 0, fire: 1, earthquake: 2, airDefense: 3 } as const;
export type NoticeAudio = (typeof NOTICE_AUDIO)[keyof typeof NOTICE_AUDIO];
/** Ordinary notifications carry no audio choice: the spec forces materialType 1. */
export const ORDINARY_MATERIAL_TYPE = 1;
export const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

/** A form field that may be absent or empty. */
const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);
const optionalInt = (key: string) =>
  z.preprocess(blankToUndefined, z.coerce.number({ error: key }).int({ error: key }).optional());
/** An optional id: 0 and below are judged with the rest of the form, above the integer range never names a row. */
const optionalId = (key: string) =>
  z.preprocess(
    blankToUndefined,
    z.coerce.number({ error: key }).int({ error: key }).max(MAX_RECORD_ID, { error: key }).optional(),
  );
/** Comma-separated label ids, each a valid id (checked here so that any wrong one is refused with the field). */
const labelIds = z
  .string()
  .max(100_000)
  .refine((text) => ids(text).every(isRecordId), { error: 'label.notFound' });

const ids = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map(Number);

/** One device, or the devices of labels. */
export type NoticeTarget = { deviceId: number } | { tagIds: number[] };

/** Field rules the console's form shares with the server. */
export const noticeTitle = requiredText('notice.titleNull', NOTICE_TITLE_MAX_WIDTH, 'notice.titleTooLong');
export const noticeText = z
  .string({ error: 'notice.textNull' })
  .trim()
  .min(1, { error: 'notice.textNull' })
  .max(NOTICE_TEXT_MAX, { error: 'notice.textTooLong' });

export const sendMessageParams = z
  .object({
    title: noticeTitle,
    text: noticeText,
    level: z.coerce
      .number({ error: 'notice.levelInvalid' })
      .pipe(z.union([z.literal(0), z.literal(1)], { error: 'notice.levelInvalid' })),
    position: z.preprocess(
      blankToUndefined,
      z.enum(NOTICE_POSITIONS, { error: 'notice.positionInvalid' }).optional(),
    ),
    times: z.preprocess(
      (value) => value ?? undefined,
      z.coerce
        .number({ error: 'notice.timesInvalid' })
        .int({ error: 'notice.timesInvalid' })
        .min(1, { error: 'notice.timesInvalid' })
        .max(NOTICE_MAX_TIMES, { error: 'notice.timesInvalid' })
        .default(NOTICE_DEFAULT_TIMES),
    ),
    materialType: optionalInt('notice.audioInvalid'),
    materialId: optionalId('notice.chooseAudio'),
    color: z.preprocess(
      blankToUndefined,
      z.string().regex(COLOR_PATTERN, { error: 'notice.colorInvalid' }).default(NOTICE_DEFAULT_COLOR),
    ),
    /** One device ... */
    deviceId: optionalId('device.notFound'),
    /** ... or the devices of these labels (comma-separated label ids). */
    tags: labelIds.optional(),
  })
  .superRefine((v, ctx) => {
    const issue = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
    if (v.deviceId !== undefined && v.tags !== undefined) issue('notice.oneTarget', 'tags');
    else if (v.deviceId === undefined && v.tags === undefined) issue('notice.oneTarget', 'deviceId');
    else if (v.deviceId !== undefined && v.deviceId <= 0) issue('device.notFound', 'deviceId');
    else if (v.tags !== undefined) {
      const tagIds = ids(v.tags);
      if (!tagIds.length) issue('label.chooseDevice', 'tags');
      else if (tagIds.length > 10_000 || !tagIds.every(isRecordId)) issue('label.notFound', 'tags');
    }
    if (v.level === NOTICE_LEVELS.ordinary) {
      if (v.position === undefined) issue('notice.positionInvalid', 'position');
    } else {
      const audio = v.materialType;
      if (audio === undefined || !(Object.values(NOTICE_AUDIO) as number[]).includes(audio))
        issue('notice.audioInvalid', 'materialType');
      else if (audio === NOTICE_AUDIO.custom && (v.materialId === undefined || v.materialId <= 0))
        issue('notice.chooseAudio', 'materialId');
    }
  })
  .transform((v) => {
    const target: NoticeTarget =
      v.deviceId !== undefined ? { deviceId: v.deviceId } : { tagIds: [...new Set(ids(v.tags ?? ''))] };
    const common = { title: v.title, text: v.text, times: v.times, color: v.color.toLowerCase(), target };
    if (v.level === NOTICE_LEVELS.ordinary) {
      return { ...common, level: 1 as const, position: v.position!, materialType: ORDINARY_MATERIAL_TYPE };
    }
    return {
      ...common,
      level: 0 as const,
      audio: v.materialType as NoticeAudio,
      materialId: v.materialType === NOTICE_AUDIO.custom ? v.materialId : undefined,
    };
  });
export type SendMessage = z.output<typeof sendMessageParams>;

export const sendMessage = defineCall({
  method: 'POST',
  path: '/sendMessage/insert',
  summary:
    'Send an on-screen notification to one device (deviceId) or to the devices of labels (tags): level 0 emergency with audio (materialType 1 fire, 2 earthquake, 3 air defense, 0 custom with materialId), level 1 ordinary (position top or bottom, times)',
  tag,
  access: callers.deviceOperators,
  params: sendMessageParams,
  reply: itemReply(z.object({ count: z.number().int(), commandIds: z.array(z.string()) })),
});

export const COMMAND_STATUSES = ['queued', 'sent', 'delivered', 'succeeded', 'failed', 'expired'] as const;

export const delivery = z.object({
  commandId: z.string(),
  deviceId: z.number().int(),
  deviceName: z.string(),
  deviceKey: z.string(),
  status: z.enum(COMMAND_STATUSES),
  /** What the panel said: e.g. shown, or played with the audio's SHA-256. */
  detail: z.string(),
  updatedAt: z.number(),
});
export type Delivery = z.infer<typeof delivery>;

export const selectDelivery = defineCall({
  method: 'GET',
  path: '/sendMessage/selectDelivery',
  summary:
    'Where notifications are: the state of their commands (comma-separated ids from /sendMessage/insert, at most 500)',
  tag,
  access: callers.deviceOperators,
  params: z.object({
    commandIds: z
      .string({ error: 'common.invalidId' })
      .transform((text) => [
        ...new Set(
          text
            .split(',')
            .map((part) => part.trim())
            .filter((part) => part !== ''),
        ),
      ])
      .refine(
        (list) => list.length >= 1 && list.length <= 500 && list.every((id) => /^[0-9a-f-]{36}$/i.test(id)),
        { error: 'common.invalidId' },
      ),
  }),
  reply: listReply(delivery),
});
