import { materials, notifications, oplog } from '@panelfleet/contract';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import type { CommandService } from '../commands/service.js';
import { RegisterError, type DownloadService } from '../downloads/service.js';
import type { LabelRepository } from '../labels/repository.js';
import type { MaterialService } from '../materials/service.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { NoticeTarget, NotificationRepository } from './repository.js';

import { storedNotice, type StoredNoticeValue } from './stored-notice.js';

/**
 * On-screen notifications (spec 2 sections 4-5): checked, turned into one NOTIFY command per
 * target panel (with a life and feedback); a custom audio reaches each panel as a URL signed for
 * it when the command is published (stored-notice.ts).
 */
export class NotificationService {
  constructor(
    private readonly deps: {
      repository: NotificationRepository;
      labels: LabelRepository;
      commands: CommandService;
      materials: MaterialService;
      downloads: DownloadService;
      log: OperationLog;
    },
  ) {}

  async send(caller: SessionUser, ip: string, message: notifications.SendMessage): Promise<string[]> {
    const orgId = caller.orgId;
    const one =
      'deviceId' in message.target ? await this.oneDevice(orgId, message.target.deviceId) : undefined;
    const targets = one
      ? [{ id: one.id, deviceKey: one.deviceKey }]
      : await this.labelDevices(orgId, (message.target as { tagIds: number[] }).tagIds);
    const value = await this.valueOf(orgId, message);
    const ids = await this.deps.commands.create(orgId, caller.id, targets, 'NOTIFY', value);
    const where: oplog.OperationValue = one
      ? `${one.name} (${one.deviceKey})`
      : oplog.term('labels', {
          labels: (await this.deps.labels.list(orgId))
            .filter((l) => (message.target as { tagIds: number[] }).tagIds.includes(l.id))
            .map((l) => l.name),
        });
    await this.deps.log.recordBy(caller, ip, 'sendMessage', {
      k: 'notification',
      v: {
        title: message.title,
        level: oplog.term(message.level === 0 ? 'level.emergency' : 'level.ordinary'),
        target: where,
        count: oplog.counted('panel', ids.length),
      },
    });
    return ids;
  }

  async deliveries(orgId: number, commandIds: string[]): Promise<notifications.Delivery[]> {
    const rows = await this.deps.repository.deliveries(orgId, commandIds);
    return rows.map((r) => ({
      commandId: r.id,
      deviceId: r.device_id,
      deviceName: r.name,
      deviceKey: r.device_key,
      status: r.status,
      detail: r.detail,
      updatedAt: r.updated_at,
    }));
  }

  private async oneDevice(orgId: number, deviceId: number) {
    const found = await this.deps.repository.device(orgId, deviceId);
    if (!found) throw new Refusal('device.notFound', 'notFound');
    if (found.state !== 1) throw new Refusal('device.disabled', 'invalid');
    return found;
  }

  private async labelDevices(orgId: number, labelIds: number[]): Promise<NoticeTarget[]> {
    // A label of another company reads like one that does not exist, and nothing is sent.
    if ((await this.deps.labels.ownedCount(orgId, labelIds)) !== new Set(labelIds).size)
      throw new Refusal('label.notFound', 'notFound');
    // Enabled devices only: a disabled panel takes no commands.
    const targets = await this.deps.labels.devicesOf(orgId, labelIds);
    if (!targets.length) throw new Refusal('command.noDevices', 'invalid');
    return targets;
  }

  private async valueOf(orgId: number, message: notifications.SendMessage): Promise<StoredNoticeValue> {
    const common = { title: message.title, text: message.text, times: message.times, color: message.color };
    if (message.level === 1) return storedNotice({ ...common, level: 1, position: message.position });
    if (message.audio !== notifications.NOTICE_AUDIO.custom || message.materialId === undefined)
      return storedNotice({ ...common, level: 0, audio: message.audio });
    const { record, key } = await this.deps.materials.fileOf(orgId, message.materialId);
    if (record.file_type !== materials.MATERIAL_FILE_TYPES.audio)
      throw new Refusal('material.notFound', 'notFound');
    // Registering reads the file once more: a file changed in the store since its upload is not sent.
    const file = await this.deps.downloads
      .register({ path: key, size: record.file_size, sha256: record.sha256 })
      .catch((error: unknown) => {
        if (error instanceof RegisterError) throw new Refusal('material.damaged', 'conflict');
        throw error;
      });
    return storedNotice({ ...common, level: 0, audio: 0 }, file);
  }
}
