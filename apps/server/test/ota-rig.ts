import { device, ota } from '@panelfleet/contract';
import { afterAll, beforeAll } from 'vitest';
import { startFleet, type Fleet } from '../../simulator/src/fleet.js';
import { signedIn, startServer, type TestClient, type TestServer } from './harness.js';
import { enrollmentSecretOf, operatorClient, waitFor } from './device-helpers.js';
import { firmwareBytes, ForwardingProxy, tusTarget, tusUpload } from './ota-helpers.js';

/** The largest firmware upload the OTA test servers take. */
export const LIMIT = 4 * 1024 * 1024;

/**
 * The OTA tests' server (behind a proxy that can slow a panel's download), its operator and admin,
 * and the steps they share: publish a file, start a fleet, label panels, read a task's targets.
 * Call it inside a `describe`: it starts the server before the tests and stops it after.
 */
export function otaRig(backend: 'sqlite' | 'postgres') {
  let server: TestServer;
  let proxy: ForwardingProxy;
  let operator: TestClient;
  let admin: TestClient;
  const fleets: Fleet[] = [];
  let machineTypeIds: Map<string, number>;
  let seq = 0;

  const ok = (reply: { body: Record<string, unknown>; text: string }, what: string) => {
    if (reply.body.hhtStatus !== 'success') throw new Error(`${what}: ${reply.text}`);
    return reply.body;
  };

  /** Publishes an OTA file through tus and /otaFile/insert; its id. */
  async function publish(
    version: string,
    opts: { types?: string[]; from?: number[]; ruleId?: number; size?: number } = {},
  ) {
    const t = tusTarget(server.url, operator);
    const uploadId = await tusUpload(t, firmwareBytes(opts.size ?? 300_000, ++seq), `fw-${version}.bin`);
    const types = (opts.types ?? ['x9_vn', 'oem', 'rs']).map((n) => machineTypeIds.get(n)!);
    const body = ok(
      await operator.post('/otaFile/insert', {
        uploadId,
        otaVersion: version,
        fitMachineTypeId: types.join(','),
        fitOtaVersionId: (opts.from ?? []).join(','),
        ...(opts.ruleId ? { otaRuleId: String(opts.ruleId) } : {}),
        remarkFileName: `release ${version}`,
      }),
      `publish ${version}`,
    );
    return ota.insertOtaFile.reply.parse(body).dataObject.id;
  }

  async function fleetOf(
    prefix: string,
    count: number,
    options: Partial<Parameters<typeof startFleet>[0]> = {},
  ) {
    const fleet = await startFleet({
      url: server.url,
      mqttUrl: `mqtt://127.0.0.1:${server.app.devices.mqttPort}`,
      enrollmentSecret: await enrollmentSecretOf(operator),
      count,
      prefix,
      telemetryMs: 3_600_000,
      progressMs: 20,
      abnormalLogChance: 0,
      log: () => undefined,
      ...options,
    });
    fleets.push(fleet);
    const rows = await waitFor(`${prefix} panels reported`, async () => {
      await server.app.devices.gateway.flushState();
      const found = await server.app.db.kysely
        .selectFrom('devices')
        .select(['id', 'device_key', 'ota_version', 'machine_type'])
        .where('device_key', 'like', `${prefix}-%`)
        .orderBy('id')
        .execute();
      return found.length === count && found.every((r) => r.ota_version === '1.4.2') ? found : undefined;
    });
    return { fleet, rows, panel: (key: string) => fleet.panels.find((p) => p.serial === key)! };
  }

  async function labelOf(name: string, deviceIds: number[]) {
    const label = device.insertGroup.reply.parse(
      ok(await operator.post('/platform/group/insert', { groupName: name }), 'label'),
    );
    ok(
      await operator.post('/platform/group/saveGroupsAndDevices', {
        deviceIds: deviceIds.join(','),
        groupIds: String(label.dataObject.groupId),
      }),
      'label members',
    );
    return label.dataObject.groupId;
  }

  const targets = (taskId: number) =>
    server.app.db.kysely
      .selectFrom('rollout_targets')
      .innerJoin('devices', 'devices.id', 'rollout_targets.device_id')
      .select([
        'devices.device_key',
        'rollout_targets.state',
        'rollout_targets.reason',
        'rollout_targets.wave',
      ])
      .where('task_id', '=', taskId)
      .orderBy('devices.id')
      .execute();

  const otaCommandsOf = (deviceIds: number[]) =>
    server.app.db.kysely
      .selectFrom('commands')
      .select(['device_id', 'status'])
      .where('order_code', '=', 'OTA')
      .where('device_id', 'in', deviceIds)
      .execute();

  beforeAll(async () => {
    proxy = new ForwardingProxy();
    const base = await proxy.listen();
    server = await startServer(
      backend,
      { BASE_URL: base, UPLOAD_MAX_FIRMWARE_BYTES: String(LIMIT) },
      {
        rollout: { tickMs: 100, jitterMs: 0, leaseMs: 5000 },
        throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 },
      },
    );
    proxy.target = Number(new URL(server.url).port);
    operator = await operatorClient(server);
    admin = await signedIn(server, 'admin', 'admin123');
    for (const version of ['1.4.2', '1.3.0'])
      ok(await admin.post('/otaVersion/insert', { otaVersion: version, enable: '1' }), 'version');
    const options = ota.listMachineTypeOptions.reply.parse(
      (await operator.get('/otaFile/machineTypeOptions')).body,
    );
    machineTypeIds = new Map(options.listObject.map((o) => [o.machineType, o.machineTypeId]));
  });
  afterAll(async () => {
    for (const fleet of fleets) await fleet.stop();
    await server?.stop();
    await proxy?.close();
  });

  return {
    get server() {
      return server;
    },
    get proxy() {
      return proxy;
    },
    get operator() {
      return operator;
    },
    get admin() {
      return admin;
    },
    get machineTypeIds() {
      return machineTypeIds;
    },
    ok,
    publish,
    fleetOf,
    labelOf,
    targets,
    otaCommandsOf,
  };
}
