import { screenshots } from '@panelfleet/contract';
import { z } from 'zod';
import type { Router } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import type { PanelScreenshots } from './panel-upload.js';
import type { ScreenshotService } from './service.js';

const uploadQuery = z.object({ t: z.string().min(1).max(1024) });

export function screenshotRoutes(router: Router, service: ScreenshotService, panels: PanelScreenshots) {
  router.add(screenshots.takeScreenshot, async ({ session, params }) => ({
    hhtStatus: 'success',
    dataObject: await service.take(session.user, params.deviceId),
  }));

  router.add(screenshots.screenshotStatus, async ({ session, params }) => ({
    hhtStatus: 'success',
    dataObject: await service.status(session.user.orgId, params.screenshotId),
  }));

  router.add(screenshots.latestScreenshot, async ({ session, params }) => ({
    hhtStatus: 'success',
    dataObject: await service.latest(session.user.orgId, params.deviceId),
  }));

  router.add(screenshots.screenshotImage, async ({ session, params, reply }) => {
    const { mediaType, body } = await service.image(session.user.orgId, params.screenshotId, params.size);
    reply
      .type(mediaType)
      .header('cache-control', 'private, max-age=86400')
      .header('x-content-type-options', 'nosniff');
    return body;
  });

  router.add(screenshots.wallOfLabel, async ({ session, params }) => {
    const { labelName, tiles } = await service.wall(session.user.orgId, params.labelId);
    return { hhtStatus: 'success', labelName, listObject: tiles, totalRecords: tiles.length };
  });

  router.add(screenshots.uploadScreenshot, async ({ panel, params, request }) => {
    const query = uploadQuery.safeParse(request.query);
    if (!query.success) throw new Refusal('screenshot.otherPanel', 'forbidden');
    const stored = await panels.upload(panel.deviceKey, query.data.t, Buffer.from(params.image.bytes));
    return { hhtStatus: 'success', dataObject: stored };
  });
}
