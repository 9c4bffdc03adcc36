import { ota } from '@panelfleet/contract';
import type { SimulatedPanel } from '../../../simulator/src/panel.js';
import { waitFor } from '../device-helpers.js';
import { HealthProbes, type Instance } from './instances.js';
import { countCommand, countOta, type Count } from './ledger.js';
import { NEW_VERSION, type Rig } from './rig.js';

/** The faults, each done to a running rig at a chosen moment, with what it counted. */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `check` holds, looking every few milliseconds (a fault must land mid-work). */
function when(check: () => boolean, timeoutMs: number, what: string) {
  return new Promise<void>((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const timer = setInterval(() => {
      if (check()) {
        clearInterval(timer);
        resolve();
      } else if (Date.now() > deadline) {
        clearInterval(timer);
        reject(new Error(`timed out waiting for ${what}`));
      }
    }, 5);
  });
}

/**
 * Runs `fault` synchronously within the panel's handling of the command (order 00, `value`) that
 * makes `threshold` panels run it; answers how many had, when, and the fault's own promise.
 */
function afterExecutions<T>(
  panels: SimulatedPanel[],
  threshold: number,
  value: string,
  timeoutMs: number,
  fault: () => Promise<T>,
) {
  return new Promise<{ doneAtFault: number; struckAt: number; outcome: Promise<T> }>((resolve, reject) => {
    let ran = 0;
    const originals = panels.map((p) => p.executed.push);
    const restore = () => panels.forEach((p, i) => (p.executed.push = originals[i]!));
    const timer = setTimeout(() => {
      restore();
      reject(new Error(`timed out waiting for ${threshold} panels to run command ${value}`));
    }, timeoutMs);
    panels.forEach((panel, i) => {
      panel.executed.push = (...commands) => {
        const length = originals[i]!.apply(panel.executed, commands);
        ran += commands.filter((c) => c.order === '00' && String(c.value) === value).length;
        if (ran === threshold) {
          restore();
          clearTimeout(timer);
          resolve({ doneAtFault: ran, struckAt: Date.now(), outcome: fault() });
        }
        return length;
      };
    });
  });
}

/** Waits for `check`; a timeout is not an error here: what did not arrive is counted as lost. */
const settle = (what: string, check: () => Promise<boolean> | boolean, timeoutMs: number) =>
  waitFor(what, async () => (await check()) || undefined, timeoutMs).then(
    () => true,
    () => false,
  );

export type InstanceFault = 'kill -9' | 'SIGTERM';

export interface FaultFigures {
  fault: string;
  victim: string;
  /** Panels that had run the command (or OTA) when the fault struck, of `count.sent`. */
  doneAtFault: number;
  count: Count;
  /** The command's rows by status (label commands), the task's targets by state (OTA). */
  rows?: Record<string, number>;
  /** SIGTERM: from the signal to the process's exit, and its exit code. */
  exitMs?: number;
  exitCode?: number | null;
  /** From the fault to every panel done (the struck instance restarting meanwhile). */
  settledMs: number;
}

/** Strikes an instance and starts it again (in the background: the others work meanwhile). */
async function strike(rig: Rig, instance: Instance, fault: InstanceFault) {
  if (fault === 'kill -9') {
    await rig.instances.kill(instance);
    rig.instances.restart(instance);
    return {};
  }
  const { exitMs, code } = await rig.instances.terminate(instance);
  rig.instances.restart(instance);
  return { exitMs, exitCode: code };
}

/**
 * A label command to every panel, through `via`, and the fault once a twentieth of the panels ran it:
 * an instance killed or stopped (`via` itself, the one fanning out), or the broker restarted.
 */
export async function labelCommandWithFault(
  rig: Rig,
  via: string,
  value: string,
  fault: InstanceFault | 'broker restart',
  timeoutMs: number,
): Promise<FaultFigures> {
  const panels = rig.fleet.panels;
  const ran = () =>
    panels.filter((p) => p.executed.some((c) => c.order === '00' && String(c.value) === value)).length;
  // Every instance runs when the fault strikes (a restart's start-up competes for the same cores).
  await rig.instances.ready();
  const threshold = Math.ceil(panels.length / 20);
  // The fault strikes in the same turn as the execution that reaches the threshold, not at a later poll.
  const struck = afterExecutions(panels, threshold, value, timeoutMs, () =>
    fault === 'broker restart'
      ? rig.broker.restart().then(() => ({}))
      : strike(rig, rig.instances.byName(via), fault),
  );
  const reply = rig
    .clientOf(via)
    .post('/sendData/sendCommandByTagIds', {
      tagIds: Object.values(rig.labels).join(','),
      order: '00',
      value,
    })
    .catch((err: unknown) => ({ status: 0, text: String(err), body: {} }));
  const { doneAtFault, struckAt, outcome: striking } = await struck;
  const outcome = await striking;
  const answered = await reply;
  if (fault !== 'kill -9' && answered.status !== 200)
    throw new Error(`the label command through ${via} was answered ${answered.status}: ${answered.text}`);
  await settle('every panel to run the command', () => ran() === panels.length, timeoutMs);
  const settledMs = Date.now() - struckAt;
  await settle(
    'every command row settled',
    async () => (await countCommand(panels, '00', value, rig.query)).rows.succeeded === panels.length,
    30_000,
  );
  const { rows, ...count } = await countCommand(panels, '00', value, rig.query);
  return {
    fault: `${fault} mid label fan-out`,
    victim: via,
    doneAtFault,
    count,
    rows,
    ...outcome,
    settledMs,
  };
}

/**
 * A staged OTA task to the first or second rollout label, waves of `rig.size.wave`, and the fault
 * to the instance holding its lease once its first panel installed and before its last got it.
 */
export async function rolloutWithFault(
  rig: Rig,
  which: 'first' | 'second',
  fault: InstanceFault,
  timeoutMs: number,
): Promise<FaultFigures> {
  const panels = rig.rolloutPanels(which);
  await rig.instances.ready();
  const reply = await rig.operator.post('/otaFile/forceUpdate', {
    tagIds: String(rig.labels[which]),
    otaFileId: String(rig.fileId),
    waveMode: 'count',
    firstWave: String(rig.size.wave),
    waveStep: String(rig.size.wave),
  });
  if (reply.body.hhtStatus !== 'success') throw new Error(`OTA task refused: ${reply.text}`);
  const task = ota.forceUpdate.reply.parse(reply.body).dataObject;
  const got = () => panels.filter((p) => p.executed.some((c) => c.order === 'OTA')).length;
  await when(
    () => panels.some((p) => p.otaInstalls > 0),
    timeoutMs,
    'the first panel of the OTA task installed',
  );
  const holder = await waitFor('the OTA task held by an instance', async () => {
    const [row] = await rig.query<{ lease_owner: string | null }>(
      `SELECT lease_owner FROM rollout_tasks WHERE id = ${task.otaTaskId}`,
    );
    return row?.lease_owner ? rig.instances.byPid(Number(row.lease_owner.split('-')[0])) : undefined;
  });
  const doneAtFault = got();
  if (doneAtFault >= panels.length)
    throw new Error(`the OTA task reached all ${panels.length} panels before the fault: not mid rollout`);
  const struckAt = Date.now();
  const outcome = await strike(rig, holder, fault);
  const taskState = async () =>
    ota.getOtaTask.reply.parse(
      (await rig.operator.get(`/otaTask/selectById?otaTaskId=${task.otaTaskId}`)).body,
    ).dataObject.state;
  await settle(
    'every panel of the OTA task on the new version, the task completed',
    async () =>
      panels.every((p) => p.state.otaVersion === NEW_VERSION) && (await taskState()) === 'completed',
    timeoutMs,
  );
  const settledMs = Date.now() - struckAt;
  const perPanel = await rig.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM commands c JOIN devices d ON d.id = c.device_id
     WHERE c.order_code = 'OTA' AND d.device_key IN (${panels.map((p) => `'${p.serial}'`).join(',')})
     GROUP BY c.device_id`,
  );
  const targets = await rig.query<{ state: string; n: string | number }>(
    `SELECT state, count(*) AS n FROM rollout_targets WHERE task_id = ${task.otaTaskId} GROUP BY state`,
  );
  const count = countOta(panels, NEW_VERSION);
  count.duplicated += perPanel.reduce((n, r) => n + Number(r.n) - 1, 0);
  return {
    fault: `${fault} mid staged OTA rollout`,
    victim: holder.name,
    doneAtFault,
    count,
    rows: Object.fromEntries(targets.map((r) => [r.state, Number(r.n)])),
    ...outcome,
    settledMs,
  };
}

export interface OutageFigures {
  fault: string;
  outageMs: number;
  /** Per instance: ms from the outage to its first 503 on /healthz, and from recovery to its first 200. */
  unavailableAfterMs: Record<string, number>;
  backAfterMs: Record<string, number>;
}

/** PostgreSQL stopped or frozen (through the proxy) for `outageMs`, every instance's /healthz asked throughout. */
export async function postgresOutage(
  rig: Rig,
  how: 'stopped' | 'frozen',
  outageMs: number,
): Promise<OutageFigures> {
  await rig.instances.ready();
  const probes = new HealthProbes(rig.instances.all);
  probes.start();
  await sleep(1000);
  const from = performance.now();
  if (how === 'stopped') await rig.proxy.refuse();
  else rig.proxy.freeze();
  await sleep(outageMs);
  const to = performance.now();
  await rig.proxy.pass();
  await settle(
    'every instance ready again',
    () => Object.values(probes.firstAnswer(to, 200)).every(Number.isFinite),
    60_000,
  );
  probes.stop();
  return {
    fault: `PostgreSQL ${how}`,
    outageMs,
    unavailableAfterMs: probes.firstAnswer(from, 503),
    backAfterMs: probes.firstAnswer(to, 200),
  };
}
