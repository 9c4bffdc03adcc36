import { device } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { DeviceImportService } from './import-service.js';

/**
 * The device list's CSV import: preview (nothing written), then apply the same file. The file
 * comes as a multipart `file` (at most DEVICE_IMPORT_MAX_BYTES; the multipart limit above it
 * answers 413 in the envelope).
 */
export function deviceImportRoutes(router: Router, deps: { imports: DeviceImportService }) {
  router.add(device.previewDeviceImport, async ({ session, params, language }) => ({
    hhtStatus: 'success',
    dataObject: await deps.imports.preview(session.user.orgId, params.file.bytes, language),
  }));

  router.add(device.applyDeviceImport, async ({ session, params, ip }) => ({
    hhtStatus: 'success',
    dataObject: await deps.imports.apply(session.user, ip, params.file.bytes, params.token),
  }));
}
