import type { OutgoingHttpHeaders } from 'node:http';
import { device } from '@panelfleet/contract';
import { Refusal } from '../../refusal.js';
import type { Router } from '../../http/router.js';
import { parseRange } from './range.js';
import { sendStoredRange } from './send-file.js';
import type { DownloadService } from './service.js';

/**
 * GET/HEAD /device/files/{name}?t={token}: a signed, device-bound, resumable download
 * (docs/device-protocol.md section 6). The SHA-256 is the ETag, so If-Range works across restarts.
 */
export function downloadRoutes(router: Router, downloads: DownloadService) {
  router.add(
    device.downloadFile,
    async ({ params, panel, request, reply }) => {
      // The router checked the panel's credentials; the link must also be signed for that panel.
      const { grant } = await downloads.grantFor(panel.deviceKey, params.t ?? '');

      const etag = `"${grant.sha256}"`;
      const ifRange = request.headers['if-range'];
      const range =
        ifRange !== undefined && ifRange !== etag ? 'whole' : parseRange(request.headers.range, grant.size);
      const headers: OutgoingHttpHeaders = {
        'accept-ranges': 'bytes',
        etag,
        'cache-control': 'private, no-store',
        'content-type': 'application/octet-stream',
      };
      if (range === 'unsatisfiable') {
        reply.headers({ 'accept-ranges': 'bytes', etag, 'content-range': `bytes */${grant.size}` });
        throw new Refusal('download.rangeInvalid', 'rangeNotSatisfiable');
      }
      const { start, end } = range === 'whole' ? { start: 0, end: grant.size - 1 } : range;
      if (range !== 'whole') headers['content-range'] = `bytes ${start}-${end}/${grant.size}`;
      headers['content-length'] = String(Math.max(0, end - start + 1));
      const status = range === 'whole' ? 200 : 206;
      if (request.method === 'HEAD' || grant.size === 0) {
        await reply.code(status).headers(headers).send();
        return undefined;
      }
      // An S3 store serves the bytes itself (with Range): the panel follows the redirect with its
      // own Range header, and drops its credentials there as any client does across origins.
      const storeUrl = await downloads.storeUrl(grant);
      if (storeUrl) {
        await reply.header('cache-control', 'private, no-store').redirect(storeUrl);
        return undefined;
      }
      // Behind nginx with FILES_ACCEL_REDIRECT, nginx sends the file (sendfile) with its own
      // Range and If-Range handling against this ETag; the server only checked the link.
      const accel = downloads.accelUri(grant);
      if (accel) {
        await reply
          .headers({ etag, 'cache-control': 'private, no-store', 'content-type': 'application/octet-stream' })
          .header('x-accel-redirect', accel)
          .send();
        return undefined;
      }
      // The body goes out through reused buffers (send-file.ts), on the raw response.
      reply.hijack();
      reply.raw.writeHead(status, headers);
      await sendStoredRange(reply.raw, downloads.files, grant.file, start, end).catch((err: unknown) => {
        request.log.error({ err, file: grant.file }, 'download interrupted by a server fault');
        reply.raw.destroy();
      });
      return undefined;
      // Our own HEAD: Fastify's automatic one would read the whole file to discard it.
    },
    { head: true },
  );
}
