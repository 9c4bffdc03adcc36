import { describe, expect, it } from 'vitest';
import { notifications } from '@panelfleet/contract';
import { NOTICE_DEFAULTS, toSendParams } from './noticeForm';

describe('send-notification form to /sendMessage/insert', () => {
  it('sends an ordinary notification with position, play count and materialType 1', () => {
    const params = toSendParams(
      { ...NOTICE_DEFAULTS, title: 'Fire drill', text: 'At 10:00', position: 'bottom', times: 5 },
      { deviceId: 7 },
      3,
    );
    expect(params).toEqual({
      title: 'Fire drill',
      text: 'At 10:00',
      color: '#000000',
      level: 1,
      deviceId: 7,
      position: 'bottom',
      times: 5,
      materialType: 1,
    });
    expect(notifications.sendMessageParams.parse(params)).toMatchObject({
      level: 1,
      position: 'bottom',
      materialType: 1,
      target: { deviceId: 7 },
    });
  });

  it('sends an emergency voice without a material, and a custom audio with its material', () => {
    const fire = toSendParams(
      { ...NOTICE_DEFAULTS, title: 'T', text: 'x', level: 0, audio: 2 },
      { tagIds: [4, 9] },
      11,
    );
    expect(fire).toEqual({ title: 'T', text: 'x', color: '#000000', level: 0, tags: '4,9', materialType: 2 });
    const custom = toSendParams(
      { ...NOTICE_DEFAULTS, title: 'T', text: 'x', level: 0, audio: 0 },
      { deviceId: 1 },
      11,
    );
    expect(notifications.sendMessageParams.parse(custom)).toMatchObject({
      level: 0,
      audio: 0,
      materialId: 11,
    });
  });

  it('leaves a custom audio without a material to the server’s refusal', () => {
    const params = toSendParams(
      { ...NOTICE_DEFAULTS, title: 'T', text: 'x', level: 0, audio: 0 },
      { deviceId: 1 },
      undefined,
    );
    const parsed = notifications.sendMessageParams.safeParse(params);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('notice.chooseAudio');
  });
});
