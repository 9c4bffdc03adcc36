import { PassThrough } from 'node:stream';
import { device } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { Router } from '../../http/router.js';
import { ClientGone } from '../reports/documents.js';
import { writeDeviceCsv, writeDeviceWorkbook } from './export-documents.js';
import type { DeviceExportService } from './export-service.js';

const TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The device list's export: the same filter and scope as the list, every page, streamed. */
export function deviceExportRoutes(
  router: Router,
  deps: { export: DeviceExportService; isOnline: (deviceKey: string) => boolean; clock: Clock },
) {
  router.add(device.exportDevices, async ({ session, params, language, request, reply }) => {
    const lang = params.lang ?? language;
    const now = deps.clock.now();
    const out = new PassThrough();
    // A client that goes away ends the writer (its next wait fails) and so the reading.
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) out.destroy();
    });
    const batches = deps.export.batches(session.user.orgId, params.deviceName);
    const written =
      params.format === 'csv'
        ? writeDeviceCsv(lang, batches, deps.isOnline, out)
        : writeDeviceWorkbook(lang, session.user.userName, now, batches, deps.isOnline, out);
    written.catch((err: unknown) => {
      if (err instanceof ClientGone) {
        request.log.info({ format: params.format }, 'device export abandoned by the client');
        return;
      }
      request.log.error({ err, format: params.format }, 'device export failed');
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    });
    const name = `devices-${new Date(now).toISOString().slice(0, 10)}.${params.format}`;
    reply.header('cache-control', 'private, no-store');
    reply.type(TYPES[params.format]).header('content-disposition', `attachment; filename="${name}"`);
    return out;
  });
}
