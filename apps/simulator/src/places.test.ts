import { describe, expect, it } from 'vitest';
import { spreadPlace } from './fleet.js';
import { SimulatedPanel, type PanelOptions } from './panel.js';

const options = (place: PanelOptions['place']): PanelOptions => ({
  serverUrl: 'http://127.0.0.1:1',
  mqttUrl: 'mqtt://127.0.0.1:1',
  enrollmentSecret: 'x',
  serial: 'PLACE-1',
  index: 1,
  telemetryMs: 10_000,
  restartDelayMs: 1000,
  abnormalLogChance: 0,
  sendMagicPacket: () => Promise.resolve(),
  log: () => undefined,
  ...(place ? { place } : {}),
});

describe('panel places', () => {
  it('spreads panels over cities, every fourth with only a public address', () => {
    expect(spreadPlace(4)).toEqual({ publicIp: expect.any(String) });
    expect(spreadPlace(1)).toEqual({ latitude: expect.any(Number), longitude: expect.any(Number) });
  });

  it('reports no position for a panel placed by address, and the given position otherwise', () => {
    const byIp = new SimulatedPanel(options({ publicIp: '8.8.8.8' }));
    expect(byIp.state.latitude).toBeUndefined();
    expect(byIp.state.publicIp).toBe('8.8.8.8');
    const byGps = new SimulatedPanel(options({ latitude: 51.5, longitude: -0.1 }));
    expect([byGps.state.latitude, byGps.state.longitude]).toEqual([51.5, -0.1]);
    const plain = new SimulatedPanel(options(undefined));
    expect(plain.state.latitude).toBeGreaterThan(31);
  });
});
