import { dayBounds, device, translate } from '@panelfleet/contract';
import { AppError } from '../../http/app-error.js';
import type { Router } from '../../http/router.js';
import type { DeviceRepository } from '../devices/repository.js';
import { requireDeviceOperator } from '../devices/policy.js';
import type { LabelRepository } from '../labels/repository.js';
import type { CommandRepository } from './repository.js';
import type { CommandService } from './service.js';

const FEEDBACK_STATUS = { queued: 'sent', sent: 'sent', delivered: 'sent', succeeded: 'success', failed: 'fail', expired: 'fail' } as const;

function orderValue(order: device.Order, raw: string | undefined) {
  const parsed = device.parseOrderValue(order, raw);
  if (!parsed.ok) throw new AppError('command.valueInvalid', 400);
  return parsed.value;
}

export function commandRoutes(
  router: Router,
  deps: { commands: CommandService; repository: CommandRepository; devices: DeviceRepository; labels: LabelRepository },
) {
  const oneDevice = async (orgId: number, deviceId: number) => {
    const found = await deps.devices.findById(orgId, deviceId);
    if (!found) throw new AppError('device.notFound', 404);
    if (found.state !== 1) throw new AppError('device.disabled', 409);
    return { id: found.id, deviceKey: found.device_key };
  };
  const labelDevices = async (orgId: number, tagIds: number[]) => {
    // Every label must be the caller's: another tenant's id refuses the whole command.
    if ((await deps.labels.ownedCount(orgId, tagIds)) !== new Set(tagIds).size) throw new AppError('label.notFound', 404);
    const targets = await deps.labels.devicesOf(orgId, tagIds);
    if (!targets.length) throw new AppError('command.noDevices', 400);
    return targets;
  };

  router.add(device.sendCommandByDeviceId, async ({ session, params, language }) => {
    const orgId = requireDeviceOperator(session.user);
    if (device.SERVER_ONLY_ORDERS.includes(params.order)) throw new AppError('command.orderInvalid', 400);
    const value = orderValue(params.order, params.value);
    const [commandId] = await deps.commands.create(orgId, session.user.id, [await oneDevice(orgId, params.deviceId)], params.order, value);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'command.sent'), dataObject: { commandId: commandId! } };
  });

  router.add(device.sendPowerUpByDeviceId, async ({ session, params, language }) => {
    const orgId = requireDeviceOperator(session.user);
    const [commandId] = await deps.commands.create(orgId, session.user.id, [await oneDevice(orgId, params.deviceId)], 'POWERUP', null);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'command.sent'), dataObject: { commandId: commandId! } };
  });

  router.add(device.sendCommandByTagIds, async ({ session, params, language }) => {
    const orgId = requireDeviceOperator(session.user);
    if (!device.LABEL_ORDERS.includes(params.order)) throw new AppError('command.labelOrderInvalid', 400);
    const value = orderValue(params.order, params.value);
    const ids = await deps.commands.create(orgId, session.user.id, await labelDevices(orgId, params.tagIds), params.order, value);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'command.sent'), dataObject: { count: ids.length } };
  });

  router.add(device.sendPowerUpByTagIds, async ({ session, params, language }) => {
    const orgId = requireDeviceOperator(session.user);
    const ids = await deps.commands.create(orgId, session.user.id, await labelDevices(orgId, params.tagIds), 'POWERUP', null);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'command.sent'), dataObject: { count: ids.length } };
  });

  router.add(device.listFeedback, async ({ session, params }) => {
    const orgId = requireDeviceOperator(session.user);
    const day = params.createDate ? dayBounds(params.createDate, params.utcOffset) : undefined;
    const { rows, total } = await deps.repository.feedbackPage(orgId, (Math.max(1, params.start) - 1) * params.size, params.size, {
      deviceName: params.deviceName || undefined,
      from: day?.from,
      to: day?.to,
    });
    return {
      hhtStatus: 'success',
      listObject: rows.map((r) => ({
        uuid: r.id,
        deviceName: r.device_name,
        userName: r.user_name ?? '',
        status: FEEDBACK_STATUS[r.status],
        type: r.order_code,
        createDate: r.created_at,
      })),
      totalRecords: total,
    };
  });
}
