import { notifications, type ParamsOf } from '@panelfleet/contract';

export type NoticeTarget = notifications.NoticeTarget;
export type NoticeLevel = 0 | 1;

/** What the send-notification form holds. */
export interface NoticeFormValues {
  title: string;
  text: string;
  level: NoticeLevel;
  /** Emergency audio: 1 fire, 2 earthquake, 3 air defense, 0 custom. */
  audio: notifications.NoticeAudio;
  position: notifications.NoticePosition;
  times: number;
  color: string;
}

export const NOTICE_DEFAULTS: NoticeFormValues = {
  title: '',
  text: '',
  level: notifications.NOTICE_LEVELS.ordinary,
  audio: notifications.NOTICE_AUDIO.fire,
  position: 'top',
  times: notifications.NOTICE_DEFAULT_TIMES,
  color: notifications.NOTICE_DEFAULT_COLOR,
};

/** Emergency voices in the order the form offers them. */
export const AUDIO_CHOICES = [
  { value: notifications.NOTICE_AUDIO.fire, key: 'notice.audioFire' },
  { value: notifications.NOTICE_AUDIO.earthquake, key: 'notice.audioEarthquake' },
  { value: notifications.NOTICE_AUDIO.airDefense, key: 'notice.audioAirDefense' },
  { value: notifications.NOTICE_AUDIO.custom, key: 'notice.audioCustom' },
] as const;

/**
 * The form as /sendMessage/insert takes it: ordinary notifications carry position and play count
 * with materialType 1; emergency ones carry the voice, and the chosen audio when it is custom.
 */
export function toSendParams(
  values: NoticeFormValues,
  target: NoticeTarget,
  materialId: number | undefined,
): ParamsOf<typeof notifications.sendMessage> {
  const where = 'deviceId' in target ? { deviceId: target.deviceId } : { tags: target.tagIds.join(',') };
  const common = {
    title: values.title,
    text: values.text,
    color: values.color,
    level: values.level,
    ...where,
  };
  if (values.level === notifications.NOTICE_LEVELS.ordinary) {
    return {
      ...common,
      position: values.position,
      times: values.times,
      materialType: notifications.ORDINARY_MATERIAL_TYPE,
    };
  }
  const custom = values.audio === notifications.NOTICE_AUDIO.custom;
  return {
    ...common,
    materialType: values.audio,
    ...(custom && materialId !== undefined ? { materialId } : {}),
  };
}
