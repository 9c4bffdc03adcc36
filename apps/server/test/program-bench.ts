import crypto from 'node:crypto';
import { materials } from '@panelfleet/contract';
import sharp from 'sharp';
import { SAMPLE_USERS, seedAccounts } from '../src/dev/seed-accounts.js';
import { startFleet, type Fleet } from '../../simulator/src/fleet.js';
import { enrollmentSecretOf, waitFor } from './device-helpers.js';
import {
  signedIn,
  startServer,
  TEST_PEPPER,
  type backends,
  type TestClient,
  type TestServer,
} from './harness.js';
import { ForwardingProxy } from './ota-helpers.js';

/** A creator and both approvers (program roles 0, 1, 2) beside the sample users. */
const PROGRAM_USERS = [
  ...SAMPLE_USERS,
  { userName: 'creator1', password: 'creator123', userType: '4' as const, programRole: 0 },
  { userName: 'level1a', password: 'level1123', userType: '4' as const, programRole: 1 },
  { userName: 'level2a', password: 'level2123', userType: '4' as const, programRole: 2 },
];

export interface ProgramBench {
  server: TestServer;
  /** The proxy the panels download through (`slow` slows a panel's downloads). */
  proxy: ForwardingProxy;
  fleet: Fleet;
  creator: TestClient;
  level1: TestClient;
  level2: TestClient;
  /** An operator of another company. */
  foreign: TestClient;
  /** The simulated panels' rows, in enrollment order. */
  devices: Array<{ id: number; device_key: string }>;
  /** An 800x600 noise PNG in the creator's materials: big enough to take a while to download. */
  imageId: number;
  stop(): Promise<void>;
}

/**
 * A server behind a slow forwarding proxy (its BASE_URL, so panels download through it), the
 * program users signed in, `count` simulated panels enrolled as `<prefix>-…`, and an image material.
 */
export async function startProgramBench(
  backend: (typeof backends)[number],
  { count, prefix, playSecondMs }: { count: number; prefix: string; playSecondMs?: number },
): Promise<ProgramBench> {
  const proxy = new ForwardingProxy();
  const base = await proxy.listen();
  const server = await startServer(
    backend,
    { BASE_URL: base },
    {
      rollout: { tickMs: 100, jitterMs: 0, leaseMs: 5000 },
      throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 },
      users: PROGRAM_USERS,
    },
  );
  proxy.target = Number(new URL(server.url).port);
  await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
    { userName: 'b-operator', password: 'boperator123', userType: '4', activated: 1 },
  ]);
  const [creator, level1, level2, foreign] = await Promise.all([
    signedIn(server, 'creator1', 'creator123'),
    signedIn(server, 'level1a', 'level1123'),
    signedIn(server, 'level2a', 'level2123'),
    signedIn(server, 'b-operator', 'boperator123'),
  ]);
  const fleet = await startFleet({
    url: server.url,
    mqttUrl: `mqtt://127.0.0.1:${server.app.devices.mqttPort}`,
    enrollmentSecret: await enrollmentSecretOf(creator),
    count,
    prefix,
    telemetryMs: 3_600_000,
    progressMs: 1,
    abnormalLogChance: 0,
    ...(playSecondMs === undefined ? {} : { playSecondMs }),
    log: () => undefined,
  });
  const devices = await waitFor('panels enrolled', async () => {
    await server.app.devices.gateway.flushState();
    const rows = await server.app.db.kysely
      .selectFrom('devices')
      .select(['id', 'device_key'])
      .where('device_key', 'like', `${prefix}-%`)
      .orderBy('id')
      .execute();
    return rows.length === count ? rows : undefined;
  });
  // Noise, so that the image is not tiny: panels report shares while it downloads.
  const noise = crypto.randomBytes(800 * 600 * 3);
  const image = await sharp(noise, { raw: { width: 800, height: 600, channels: 3 } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('fileType', '1');
  form.append('uiFile', new Blob([image]), 'noise.png');
  const uploaded = await fetch(`${server.url}/material/insertMaterial`, {
    method: 'POST',
    headers: { cookie: `pf_session=${creator.cookie('pf_session')}` },
    body: form,
  });
  const imageId = materials.insertMaterial.reply.parse(await uploaded.json()).dataObject.materialId;
  return {
    server,
    proxy,
    fleet,
    creator,
    level1,
    level2,
    foreign,
    devices,
    imageId,
    async stop() {
      await fleet.stop();
      await server.stop();
      await proxy.close();
    },
  };
}
