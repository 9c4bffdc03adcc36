import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { freePort } from '../server-process.js';

/** A PanelFleet server (src/dev/serve.ts) in its own process: killed, stopped and started again by the suite. */
const serveScript = new URL('../../src/dev/serve.ts', import.meta.url).pathname;

export interface Instance {
  name: string;
  port: number;
  url: string;
  /** The process now running (a new one after each restart). */
  child: ChildProcess;
}

/**
 * The instances of one run, each on its own port and DATA_DIR (nothing shared on disk: the files
 * live in the S3 store), with one environment otherwise. Every process's log goes to `logFile`.
 */
export class Instances {
  readonly all: Instance[] = [];

  constructor(
    private readonly env: Record<string, string>,
    private readonly dataDirOf: (name: string) => string,
    private readonly logFile: string,
  ) {}

  async start(names: string[]) {
    const started = await Promise.all(
      names.map(async (name) => {
        const port = await freePort();
        const instance: Instance = { name, port, url: `http://127.0.0.1:${port}`, child: undefined! };
        instance.child = await this.spawn(instance);
        return instance;
      }),
    );
    this.all.push(...started);
    return started;
  }

  byName(name: string) {
    const found = this.all.find((i) => i.name === name);
    if (!found) throw new Error(`no instance ${name}`);
    return found;
  }

  /** The running instance whose process has this pid (a rollout lease names its holder's pid). */
  byPid(pid: number) {
    return this.all.find(
      (i) => i.child.pid === pid && i.child.exitCode === null && i.child.signalCode === null,
    );
  }

  /**
   * Starts the instance again on its port, after it was killed or stopped, without waiting for it
   * (a start takes seconds that the other instances work through); `ready` waits for it.
   */
  restart(instance: Instance) {
    const started = this.spawn(instance).then((child) => {
      instance.child = child;
      this.restarting.delete(instance);
    });
    this.restarting.set(instance, started);
  }

  private readonly restarting = new Map<Instance, Promise<void>>();

  /** Waits until the instance (by default every instance) restarted is running again. */
  async ready(instance?: Instance) {
    await Promise.all(instance ? [this.restarting.get(instance)] : [...this.restarting.values()]);
  }

  kill(instance: Instance) {
    instance.child.kill('SIGKILL');
    return new Promise<void>((resolve) =>
      instance.child.exitCode !== null || instance.child.signalCode !== null
        ? resolve()
        : instance.child.once('exit', () => resolve()),
    );
  }

  /** SIGTERM; answers how long the process took to exit and its exit code. */
  async terminate(instance: Instance): Promise<{ exitMs: number; code: number | null }> {
    const child = instance.child;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const sentAt = performance.now();
    child.kill('SIGTERM');
    const code = await exited;
    return { exitMs: performance.now() - sentAt, code };
  }

  async stopAll() {
    await this.ready().catch(() => undefined);
    await Promise.all(
      this.all.map((i) =>
        i.child.exitCode === null && i.child.signalCode === null ? this.kill(i) : undefined,
      ),
    );
  }

  private spawn(instance: Instance): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', serveScript], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        ...this.env,
        PORT: String(instance.port),
        DATA_DIR: this.dataDirOf(instance.name),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log = (chunk: Buffer) =>
      fs.appendFileSync(this.logFile, `[${instance.name} ${child.pid}] ${chunk}`);
    child.stderr!.on('data', log);
    return new Promise((resolve, reject) => {
      let buffer = '';
      let ready = false;
      child.stdout!.on('data', (chunk: Buffer) => {
        if (ready) return log(chunk);
        buffer += chunk.toString();
        if (buffer.split('\n').some((l) => l.startsWith('{"ready"'))) {
          ready = true;
          resolve(child);
        }
      });
      child.once('exit', (code) => {
        if (!ready) reject(new Error(`instance ${instance.name} exited at start with ${code}: ${buffer}`));
      });
    });
  }
}

export interface Probe {
  instance: string;
  sentAt: number;
  answeredAt: number;
  status: number;
}

/**
 * Asks every instance's GET /healthz every `everyMs` (a new request each time, whether or not the
 * last one answered) and keeps every answer, so that an outage's first 503 and the first 200 after
 * it can be read per instance.
 */
export class HealthProbes {
  readonly answers: Probe[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly instances: Instance[],
    private readonly everyMs = 100,
  ) {}

  start() {
    this.timer = setInterval(() => {
      for (const instance of this.instances) void this.ask(instance);
    }, this.everyMs);
  }

  stop() {
    clearInterval(this.timer);
  }

  private async ask(instance: Instance) {
    const sentAt = performance.now();
    let status = 0;
    try {
      const response = await fetch(`${instance.url}/healthz`, { signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer();
      status = response.status;
    } catch {
      status = 0;
    }
    this.answers.push({ instance: instance.name, sentAt, answeredAt: performance.now(), status });
  }

  /**
   * Per instance, the milliseconds from `since` to the first answer with `status` to a question
   * asked after `since` (Infinity when none came).
   */
  firstAnswer(since: number, status: number): Record<string, number> {
    const out: Record<string, number> = {};
    for (const instance of this.instances) {
      const first = this.answers
        .filter((a) => a.instance === instance.name && a.sentAt >= since && a.status === status)
        .reduce((min, a) => Math.min(min, a.answeredAt), Infinity);
      out[instance.name] = first - since;
    }
    return out;
  }
}
