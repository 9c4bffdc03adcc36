import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { device, ota } from '@panelfleet/contract';
import { startFleet, type Fleet } from '../../../simulator/src/fleet.js';
import { md5Hex } from '../../src/security/passwords.js';
import { waitFor } from '../device-helpers.js';
import { TestClient } from '../harness.js';
import { ThrowawayMosquitto } from '../mosquitto-helpers.js';
import { firmwareBytes, tusCreate, tusPatch, tusTarget } from '../ota-helpers.js';
import { startS3, type TestS3 } from '../s3-server.js';
import { freePort, processDatabase } from '../server-process.js';
import { TcpProxy } from '../tcp-proxy.js';
import { requirePrograms, startNginx, type Balancer } from './infra.js';
import { Instances } from './instances.js';

export interface RigSize {
  panels: number;
  /** Panels of each of the two staged OTA tasks, and their wave size. */
  rolloutPanels: number;
  wave: number;
}

const FIRMWARE_BYTES = 256 * 1024;
export const NEW_VERSION = '2.0.0';

/**
 * Everything a fault run needs, started in order: a fresh PostgreSQL database behind a TCP proxy
 * the suite controls, an own Mosquitto, s3rver as the file store, three instances (A first: it
 * migrates and seeds; then B and C), nginx with the documented config in front, the firmware
 * uploaded through nginx, and the simulated panels enrolled through nginx, labelled.
 */
export class Rig {
  private cleanups: Array<() => Promise<unknown> | unknown> = [];
  readonly work = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-faults-'));
  readonly logFile = path.join(this.work, 'instances.log');
  readonly panelLog: string[] = [];
  database!: Awaited<ReturnType<typeof processDatabase>>;
  proxy!: TcpProxy;
  broker!: ThrowawayMosquitto;
  s3!: TestS3;
  instances!: Instances;
  balancer!: Balancer;
  operator!: TestClient;
  fleet!: Fleet;
  fileId = 0;
  labels = { first: 0, second: 0, rest: 0 };

  constructor(readonly size: RigSize) {}

  query = <T>(text: string) => this.database.query<T>(text);

  async start() {
    requirePrograms();
    this.database = await processDatabase('postgres', this.work);
    this.cleanups.push(() => this.database.drop());
    const direct = new URL(this.database.env.DATABASE_URL!);
    this.proxy = await TcpProxy.start(direct.hostname, Number(direct.port || 5432));
    this.cleanups.push(() => this.proxy.stop());
    const proxied = new URL(direct);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(this.proxy.port);
    this.broker = await ThrowawayMosquitto.start();
    this.cleanups.push(() => this.broker.dispose());
    this.s3 = await startS3('panelfleet-faults');
    this.cleanups.push(() => this.s3.stop());

    const balancerPort = await freePort();
    const signingKey = crypto
      .generateKeyPairSync('ed25519')
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    // The settings docs/operations.md lists for every instance, then the test-only timings of
    // src/dev/serve.ts (shorter retry and lease periods, smaller fan-out batches).
    const env = {
      DATABASE_URL: proxied.toString(),
      MQTT_URL: this.broker.url,
      MQTT_PUBLIC_URL: this.broker.url,
      ...this.s3.env,
      PASSWORD_PEPPER: crypto.randomBytes(24).toString('hex'),
      FIRMWARE_SIGNING_KEY: signingKey,
      BASE_URL: `http://127.0.0.1:${balancerPort}`,
      TRUST_PROXY: 'loopback',
      HOST: '127.0.0.1',
      CAPTCHA: 'off',
      ADMIN_PASSWORD: 'admin123',
      LOG_LEVEL: process.env.FAULTS_LOG_LEVEL ?? 'error',
      ROLLOUT_JITTER_MS: '0',
      COMMAND_PUBLISH_BATCH: '10',
      COMMAND_RETRY_MS: '3000',
      ROLLOUT_LEASE_MS: '3000',
    };
    this.instances = new Instances(
      env,
      (name) => {
        const dir = path.join(this.work, `data-${name}`);
        fs.mkdirSync(dir, { recursive: true });
        return dir;
      },
      this.logFile,
    );
    this.cleanups.push(() => this.instances.stopAll());
    await this.instances.start(['A']);
    await this.instances.start(['B', 'C']);
    this.balancer = await startNginx(
      this.instances.all.map((i) => `127.0.0.1:${i.port}`),
      balancerPort,
    );
    this.cleanups.push(() => this.balancer.stop());

    this.operator = new TestClient(this.balancer.url);
    const login = await this.operator.post('/platform/login', {
      username: 'operator1',
      password: md5Hex('operator123'),
      tryCode: 'none',
    });
    if (login.body.hhtStatus !== 'success') throw new Error(`sign-in refused: ${login.text}`);
    await this.uploadFirmware();
    await this.startPanels();
  }

  /** A client of one instance with the operator's session (a request that must reach that one). */
  clientOf(name: string) {
    const client = new TestClient(this.instances.byName(name).url);
    client.setCookie('pf_session', this.operator.cookie('pf_session')!);
    return client;
  }

  private async uploadFirmware() {
    const target = tusTarget(this.balancer.url, this.operator);
    const created = await tusCreate(target, FIRMWARE_BYTES, 'faults.bin');
    if (!created.uploadId)
      throw new Error(`firmware upload refused: ${created.response.status} ${created.body}`);
    const patched = await tusPatch(target, created.uploadId, 0, firmwareBytes(FIRMWARE_BYTES, 23));
    if (patched.offset !== FIRMWARE_BYTES) throw new Error(`firmware upload stopped at ${patched.offset}`);
    const fit = ota.listMachineTypeOptions.reply
      .parse((await this.operator.get('/otaFile/machineTypeOptions')).body)
      .listObject.map((m) => m.machineTypeId)
      .join(',');
    const inserted = await this.operator.post('/otaFile/insert', {
      uploadId: created.uploadId,
      otaVersion: NEW_VERSION,
      fitMachineTypeId: fit,
    });
    this.fileId = ota.insertOtaFile.reply.parse(inserted.body).dataObject.id;
  }

  private async startPanels() {
    const secret = device.getEnrollmentSecret.reply.parse(
      (await this.operator.get('/platform/device/enrollmentSecret')).body,
    ).dataObject.enrollmentSecret;
    this.fleet = await startFleet({
      url: this.balancer.url,
      mqttUrl: this.broker.url,
      enrollmentSecret: secret,
      count: this.size.panels,
      prefix: 'FAULT',
      // The suite sends the reports it counts itself (ledger.ts); no periodic ones besides.
      telemetryMs: 3_600_000,
      abnormalLogChance: 0,
      restartDelayMs: 500,
      resendFirstMs: 2000,
      enrollRetryFirstMs: 500,
      log: (message) => this.panelLog.push(message),
    });
    this.cleanups.push(() => this.fleet.stop());
    const rows = await waitFor(
      'every panel known with its firmware version',
      async () => {
        const found = await this.query<{ id: number; ota_version: string }>(
          "SELECT id, ota_version FROM devices WHERE device_key LIKE 'FAULT-%' ORDER BY device_key",
        );
        return found.length === this.size.panels && found.every((r) => r.ota_version === '1.4.2')
          ? found
          : undefined;
      },
      120_000,
    );
    const ids = rows.map((r) => r.id);
    const r = this.size.rolloutPanels;
    // A panel is in one of the three (saving a panel's labels replaces them); commands go to all three.
    this.labels = {
      first: await this.label('faults: rollout killed', ids.slice(0, r)),
      second: await this.label('faults: rollout stopped', ids.slice(r, 2 * r)),
      rest: await this.label('faults: the rest', ids.slice(2 * r)),
    };
  }

  private async label(name: string, ids: number[]) {
    const label = device.insertGroup.reply.parse(
      (await this.operator.post('/platform/group/insert', { groupName: name })).body,
    ).dataObject.groupId;
    const saved = await this.operator.post('/platform/group/saveGroupsAndDevices', {
      deviceIds: ids.join(','),
      groupIds: String(label),
    });
    if (saved.body.hhtStatus !== 'success') throw new Error(`label ${name} refused: ${saved.text}`);
    return label;
  }

  /** The panels of the first or second OTA task, by serial order (as labelled). */
  rolloutPanels(which: 'first' | 'second') {
    const r = this.size.rolloutPanels;
    const sorted = [...this.fleet.panels].sort((a, b) => a.serial.localeCompare(b.serial));
    return which === 'first' ? sorted.slice(0, r) : sorted.slice(r, 2 * r);
  }

  async stop() {
    for (const cleanup of this.cleanups.reverse()) await cleanup();
    this.cleanups = [];
  }

  /** Removes the run's folder (kept after a failed run: instances.log tells what the servers said). */
  removeWork() {
    fs.rmSync(this.work, { recursive: true, force: true });
  }
}
