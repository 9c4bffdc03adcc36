import crypto from 'node:crypto';
import { dayBounds, device, oplog } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { Transact } from '../../db/unit-of-work.js';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import { findSendableDevice } from '../devices/target.js';
import type { DeviceRecord, DeviceRepository } from '../devices/repository.js';
import type { LabelRepository } from '../labels/repository.js';
import type { OperationLog } from '../operation-log/repository.js';
import { commandTerm, panelName } from '../operation-log/words.js';
import type { CommandRepository } from './repository.js';
import { REQUEST_KEY_TTL_MS, type CommandRequestRepository } from './request-repository.js';
import type { CommandService, Target } from './service.js';

const FEEDBACK_STATUS = {
  queued: 'sent',
  sent: 'sent',
  delivered: 'sent',
  succeeded: 'success',
  failed: 'fail',
  expired: 'fail',
} as const;

export interface OperatorCommandDeps {
  clock: Clock;
  commands: CommandService;
  records: Pick<CommandRepository, 'insertMany' | 'feedbackPage'>;
  devices: Pick<DeviceRepository, 'findById'>;
  labels: Pick<LabelRepository, 'list' | 'devicesOf'>;
  log: OperationLog;
  /** A transaction over the idempotency keys, the commands and the operation log. */
  transact: Transact<{
    requests: Pick<CommandRequestRepository, 'claim'>;
    commands: Pick<CommandRepository, 'insertMany'>;
    log: OperationLog;
  }>;
  /** The rules of UNINSTALL (DeviceAppsService), shared with the dedicated uninstall call. */
  uninstall: {
    checkedUninstall(target: DeviceRecord, packageNames: string[]): Promise<device.OrderValue<'UNINSTALL'>>;
  };
  /** The rules of SETTINGS (DeviceDetailService), shared with the dedicated settings call. */
  settings: {
    checkedChange(target: DeviceRecord, change: unknown, platform?: string): Promise<device.SettingsChange>;
  };
}

export interface Caller {
  user: SessionUser;
  ip: string;
}

interface FeedbackQuery {
  start: number;
  size: number;
  deviceName?: string;
  createDate?: string;
  utcOffset?: number;
}

/**
 * The commands operators send from the console (spec 2 sections 7 and 9): which orders go to a
 * device or a label, the value each carries, the same rules as the dedicated calls for UNINSTALL
 * and SETTINGS, one operation-log row per request, and label commands created once per
 * idempotency key. Delivery itself is CommandService's.
 */
export class OperatorCommandService {
  constructor(private readonly deps: OperatorCommandDeps) {}

  /** One order to one device; server-composed orders (WAKE, OTA, NOTIFY) are refused. */
  async sendToDevice(
    caller: Caller,
    deviceId: number,
    order: device.Order,
    rawValue: string | undefined,
  ): Promise<string> {
    if (device.SERVER_ONLY_ORDERS.includes(order)) throw new Refusal('command.orderInvalid', 'invalid');
    const value = orderValue(order, rawValue);
    const target = await findSendableDevice(this.deps.devices, caller.user.orgId, deviceId);
    const checked = await this.checked(target, order, value);
    const [commandId] = await this.deps.commands.create(
      caller.user.orgId,
      caller.user.id,
      [targetOf(target)],
      order,
      checked,
    );
    await this.log(caller, 'command.send', {
      k: 'command',
      v: { device: panelName(target), command: commandTerm(order, checked) },
    });
    return commandId!;
  }

  async powerUpDevice(caller: Caller, deviceId: number): Promise<string> {
    const target = await findSendableDevice(this.deps.devices, caller.user.orgId, deviceId);
    const [commandId] = await this.deps.commands.create(
      caller.user.orgId,
      caller.user.id,
      [targetOf(target)],
      'POWERUP',
      null,
    );
    await this.log(caller, 'command.powerUp', { k: 'device', v: { device: panelName(target) } });
    return commandId!;
  }

  /** One order to every enabled device of the labels; answers how many commands were created. */
  async sendToLabels(
    caller: Caller,
    labelIds: number[],
    order: device.Order,
    rawValue: string | undefined,
    idempotencyKey?: string,
  ): Promise<number> {
    if (!device.LABEL_ORDERS.includes(order)) throw new Refusal('command.labelOrderInvalid', 'invalid');
    return this.fanOut(
      caller,
      labelIds,
      order,
      orderValue(order, rawValue),
      'command.labelSend',
      idempotencyKey,
    );
  }

  powerUpLabels(caller: Caller, labelIds: number[], idempotencyKey?: string): Promise<number> {
    return this.fanOut(caller, labelIds, 'POWERUP', null, 'command.labelPowerUp', idempotencyKey);
  }

  /** The feedback log (spec 3): the organisation's operator commands, newest first. */
  async feedback(orgId: number, query: FeedbackQuery) {
    const day = query.createDate ? dayBounds(query.createDate, query.utcOffset) : undefined;
    const { rows, total } = await this.deps.records.feedbackPage(
      orgId,
      (Math.max(1, query.start) - 1) * query.size,
      query.size,
      {
        deviceName: query.deviceName || undefined,
        from: day?.from,
        to: day?.to,
      },
    );
    return {
      total,
      rows: rows.map((r) => ({
        uuid: r.id,
        deviceName: r.device_name,
        userName: r.user_name ?? '',
        status: FEEDBACK_STATUS[r.status],
        type: r.order_code,
        createDate: r.created_at,
        detail: r.status === 'expired' ? 'expired' : r.detail,
      })),
    };
  }

  /** UNINSTALL and SETTINGS pass the rules their dedicated calls apply; other orders need only a valid value. */
  private async checked(target: DeviceRecord, order: device.Order, value: unknown): Promise<unknown> {
    if (order === 'UNINSTALL')
      return this.deps.uninstall.checkedUninstall(
        target,
        (value as device.OrderValue<'UNINSTALL'>).packageNames,
      );
    if (order === 'SETTINGS') {
      const change = value as device.SettingsChange;
      // Pictures by input passed the order's schema for the series named; that must be the panel's.
      if (change.platformMsg === undefined) {
        if (change.platform !== target.machine_type) throw new Refusal('setting.notForSeries', 'invalid');
        return change;
      }
      const checked = await this.deps.settings.checkedChange(target, change.platformMsg, change.platform);
      return { ...change, ...checked };
    }
    return value;
  }

  /**
   * Records one command per device of the labels and publishes them. With an idempotency key the
   * key is claimed, the commands inserted and the log row written in one transaction, so of
   * requests carrying the same key exactly one creates commands; the others answer its count.
   */
  private async fanOut(
    caller: Caller,
    labelIds: number[],
    order: device.Order,
    value: unknown,
    action: 'command.labelSend' | 'command.labelPowerUp',
    idempotencyKey: string | undefined,
  ): Promise<number> {
    const { user } = caller;
    const ids = [...new Set(labelIds)].sort((a, b) => a - b);
    // Every label must be the caller's: another tenant's id refuses the whole command.
    const labels = (await this.deps.labels.list(user.orgId)).filter((l) => ids.includes(l.id));
    if (labels.length !== ids.length) throw new Refusal('label.notFound', 'notFound');
    const targets: Target[] = await this.deps.labels.devicesOf(user.orgId, ids);
    if (!targets.length) throw new Refusal('command.noDevices', 'invalid');
    const rows = this.deps.commands.prepare(user.orgId, user.id, targets, order, value);
    const content: oplog.OperationContent =
      order === 'POWERUP'
        ? {
            k: 'labelPowerUp',
            v: { labels: labels.map((l) => l.name), count: oplog.counted('panel', rows.length) },
          }
        : {
            k: 'labelCommand',
            v: {
              labels: labels.map((l) => l.name),
              command: commandTerm(order, value),
              count: oplog.counted('panel', rows.length),
            },
          };

    if (idempotencyKey === undefined) {
      await this.deps.records.insertMany(rows);
      this.deps.commands.release(rows, targets);
      await this.log(caller, action, content);
      return rows.length;
    }

    const now = this.deps.clock.now();
    const fingerprint = crypto
      .createHash('sha256')
      .update(JSON.stringify({ order, value, labels: ids }))
      .digest('hex');
    const claim = await this.deps.transact(async ({ requests, commands, log }) => {
      const held = await requests.claim(
        {
          org_id: user.orgId,
          idempotency_key: idempotencyKey,
          fingerprint,
          command_count: rows.length,
          created_by: user.id,
          created_at: now,
        },
        now - REQUEST_KEY_TTL_MS,
      );
      if (!held.claimed) return held;
      await commands.insertMany(rows);
      await log.recordBy(user, caller.ip, action, content);
      return held;
    });
    if (!claim.claimed) {
      if (claim.fingerprint !== fingerprint) throw new Refusal('command.idempotencyKeyReused', 'conflict');
      return claim.commandCount;
    }
    this.deps.commands.release(rows, targets);
    return rows.length;
  }

  private log(caller: Caller, action: oplog.OperationAction, content: oplog.OperationContent) {
    return this.deps.log.recordBy(caller.user, caller.ip, action, content);
  }
}

export function orderValue(order: device.Order, raw: string | undefined) {
  const parsed = device.parseOrderValue(order, raw);
  if (!parsed.ok) throw new Refusal('command.valueInvalid', 'invalid');
  return parsed.value;
}

const targetOf = (d: DeviceRecord): Target => ({ id: d.id, deviceKey: d.device_key });
