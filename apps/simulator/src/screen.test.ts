import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { PanelHost } from './panel-host.js';
import { initialState } from './panel-state.js';
import { captureScreen, screenSvg } from './screen.js';

const value = {
  url: 'http://127.0.0.1/device/screenshot?t=x',
  maxBytes: 4 * 1024 * 1024,
  maxWidth: 1280,
  maxHeight: 720,
  expiresAt: 0,
};

/** Just what the screen reads of a panel. */
const panelWith = (serial: string, changes: Partial<PanelHost> = {}, brightness = 80) =>
  ({
    serial,
    state: { ...initialState(1), brightness },
    playing: undefined,
    lastNotification: undefined,
    ...changes,
  }) as unknown as PanelHost;

const meanOf = async (picture: Buffer) => {
  const { channels } = await sharp(picture).stats();
  return channels.slice(0, 3).reduce((sum, c) => sum + c.mean, 0) / 3;
};

describe('the simulated screen', () => {
  it('is a JPEG within the asked size that is darker at a lower brightness', async () => {
    const bright = await captureScreen(panelWith('SIM-1', {}, 90), value);
    const dim = await captureScreen(panelWith('SIM-1', {}, 20), value);
    const meta = await sharp(bright).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 1280, height: 720 });
    expect(await meanOf(dim)).toBeLessThan((await meanOf(bright)) * 0.5);
    const small = await sharp(
      await captureScreen(panelWith('SIM-1'), { ...value, maxWidth: 640 }),
    ).metadata();
    expect(small).toMatchObject({ width: 640, height: 360 });
  });

  it('shows the source, the program with its materials and a notification, panel by panel', async () => {
    const playing = {
      commandId: 'c',
      programId: 1,
      revision: 0,
      name: 'Morning news',
      items: 2,
      materials: ['lobby-poster.png', 'intro.mp4'],
      since: 0,
    };
    const svg = screenSvg(
      panelWith('SIM-2', {
        playing,
        lastNotification: { title: 'Fire drill', text: 'At 10:00', level: 1, position: 'top', times: 1 },
      }),
    );
    for (const text of [
      'SIM-2',
      'Program: Morning news',
      '1. lobby-poster.png',
      '2. intro.mp4',
      'Fire drill: At 10:00',
    ])
      expect(svg).toContain(text);
    const hdmi = panelWith('SIM-2');
    hdmi.state.source = 'hdmi1';
    expect(screenSvg(hdmi)).toContain('Input: hdmi1');
    const [one, two] = await Promise.all([
      captureScreen(panelWith('SIM-A'), value),
      captureScreen(panelWith('SIM-B'), value),
    ]);
    expect(one.equals(two)).toBe(false);
  });
});
