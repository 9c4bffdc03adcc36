import path from 'node:path';

/**
 * The two deployments e2e drives: a normal one with a small simulated fleet of "Riverside School"
 * (panels E2E-00001... enroll on start, so tests wait for them to show up online) and a
 * special-flag (OTA staff) one without panels, and a private deployment of the normal one.
 */
// E2E_PORT_BASE lets two runs go side by side (two checkouts, or the two shards of `npm test`):
// each uses base, base+1, base+2 and data folders of its own.
const base = Number(process.env.E2E_PORT_BASE ?? 18181);
const data = (name: string) => path.resolve(import.meta.dirname, `../.data/${base}/${name}`);

export const servers = {
  normal: {
    port: base,
    dataDir: data('normal'),
    roleFlag: '0',
    fleet: 6,
    platform: undefined,
  },
  special: {
    port: base + 1,
    dataDir: data('special'),
    roleFlag: '1',
    fleet: 0,
    platform: undefined,
  },
  /** A private deployment whose platform is the normal server: it must be activated at /active. */
  private: {
    port: base + 2,
    dataDir: data('private'),
    roleFlag: '0',
    fleet: 0,
    platform: 'normal',
  },
} as const;
export type ServerName = keyof typeof servers;
export const baseUrl = (name: ServerName) => `http://127.0.0.1:${servers[name].port}`;
