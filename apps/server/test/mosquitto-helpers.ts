import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import mqtt from 'mqtt';
import { waitFor } from './device-helpers.js';

export const MOSQUITTO = '/usr/sbin/mosquitto';
export const hasMosquitto = fs.existsSync(MOSQUITTO);
if (!hasMosquitto) console.warn('SKIPPED: Mosquitto is not installed (apt-get install mosquitto)');

const run = promisify(execFile);
const PLUGIN = '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so';
/** Mosquitto with its dynamic-security plugin and mosquitto_ctrl (all in Debian's mosquitto). */
export const hasDynsec = hasMosquitto && fs.existsSync('/usr/bin/mosquitto_ctrl') && fs.existsSync(PLUGIN);

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

/**
 * A throwaway Mosquitto of this test only (own port, own directory, anonymous, no persistence:
 * a broker that keeps no sessions and no retained messages across a restart). Never the shared one.
 */
export class ThrowawayMosquitto {
  private child: ChildProcess | undefined;
  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async start(): Promise<ThrowawayMosquitto> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-mosq-'));
    const broker = new ThrowawayMosquitto(await freePort(), dir);
    fs.writeFileSync(
      path.join(dir, 'mosquitto.conf'),
      [
        // Started as root, Mosquitto would switch to its own user, which cannot read this private directory.
        `user ${os.userInfo().username}`,
        `listener ${broker.port} 127.0.0.1`,
        'allow_anonymous true',
        'persistence false',
        // The default (1000) drops what is queued for a client beyond it: an instance joining a
        // fleet of over a thousand panels would miss retained presence messages (docs/operations.md).
        'max_queued_messages 0',
        'log_dest none',
        '',
      ].join('\n'),
    );
    await broker.run();
    return broker;
  }

  get url() {
    return `mqtt://127.0.0.1:${this.port}`;
  }

  private async run() {
    const child = spawn(MOSQUITTO, ['-c', path.join(this.dir, 'mosquitto.conf')], { stdio: 'ignore' });
    this.child = child;
    await waitFor('mosquitto listening', () => answers(this.port));
  }

  /**
   * Stops the broker: its clients lose their connections and it forgets everything. `crash`
   * (SIGKILL) stops it without a word to anyone, last wills included.
   */
  async stop(how: 'stop' | 'crash' = 'stop') {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(how === 'crash' ? 'SIGKILL' : 'SIGTERM');
    await exited;
  }

  async restart(how: 'stop' | 'crash' = 'stop') {
    await this.stop(how);
    await this.run();
  }

  async dispose() {
    await this.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A Mosquitto of our own (this machine's shared one on 1883 is anonymous and must stay so):
 * anonymous clients refused, the dynamic-security plugin, and the server user holding the
 * plugin's admin role plus the device topics (docs/device-protocol.md section 8).
 */
export async function startDynsecMosquitto(password: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-dynsec-'));
  const port = await freePort();
  const config = path.join(dir, 'dynamic-security.json');
  await run('mosquitto_ctrl', ['dynsec', 'init', config, 'panelfleet-server', password]);
  fs.writeFileSync(
    path.join(dir, 'mosquitto.conf'),
    [
      // Started as root, Mosquitto would switch to its own user, which cannot read this private directory.
      `user ${os.userInfo().username}`,
      `listener ${port} 127.0.0.1`,
      'allow_anonymous false',
      'persistence false',
      // As docs/operations.md says for fleets over a thousand panels (retained presence).
      'max_queued_messages 0',
      'log_dest none',
      `plugin ${PLUGIN}`,
      `plugin_opt_config_file ${config}`,
      '',
    ].join('\n'),
  );
  const child = spawn('/usr/sbin/mosquitto', ['-c', path.join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
  try {
    await grantDeviceTopics(port, password);
  } catch (err) {
    child.kill('SIGTERM');
    throw err;
  }
  return { child, port, dir };
}

async function grantDeviceTopics(port: number, password: string) {
  await waitFor(
    'mosquitto listening',
    () =>
      new Promise<boolean>((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => (s.destroy(), resolve(true)));
        s.once('error', () => resolve(false));
      }),
  );
  // What `mosquitto_ctrl dynsec addRoleACL admin <type> 'pf/v1/d/#' allow` does, through the control topic.
  // Dynsec disconnects the clients of a role it changes, this one included, instead of answering.
  const admin = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
    username: 'panelfleet-server',
    password,
    reconnectPeriod: 0,
  });
  const kicked = new Promise<void>((resolve) => admin.once('close', () => resolve()));
  const commands = ['publishClientSend', 'publishClientReceive', 'subscribePattern'].map((acltype) => ({
    command: 'addRoleACL',
    rolename: 'admin',
    acltype,
    topic: 'pf/v1/d/#',
    allow: true,
  }));
  admin.publish('$CONTROL/dynamic-security/v1', JSON.stringify({ commands }), { qos: 0 });
  await kicked;
  await admin.endAsync(true);
}
