import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.js';
import { parseRange } from './range.js';
import { sendFileRange } from './send-file.js';
import type { DownloadService } from './service.js';

/** Checks that the request carries the credentials of this panel (HTTP Basic, its MQTT user name and password). */
export type DeviceCredentialCheck = (deviceKey: string, password: string) => Promise<boolean>;

function basicCredentials(header: string | undefined): { user: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * GET/HEAD /device/files/{name}?t={token}: a signed, device-bound, resumable download
 * (docs/device-protocol.md section 6). The SHA-256 is the ETag, so If-Range works across restarts.
 */
export function downloadRoutes(http: FastifyInstance, downloads: DownloadService, verifyDevice: DeviceCredentialCheck) {
  const serve = async (request: FastifyRequest<{ Querystring: { t?: string } }>, reply: FastifyReply) => {
    const opened = await downloads.open(typeof request.query.t === 'string' ? request.query.t : '');
    if (!opened.ok) {
      if (opened.why === 'expired') throw new AppError('download.linkExpired', 410);
      if (opened.why === 'gone') throw new AppError('common.notFound', 404);
      throw new AppError('download.linkInvalid', 403);
    }
    const { grant, absolute } = opened;
    const credentials = basicCredentials(request.headers.authorization);
    if (!credentials) {
      reply.header('www-authenticate', 'Basic realm="panelfleet-device"');
      throw new AppError('download.deviceOnly', 401);
    }
    if (credentials.user !== grant.deviceKey || !(await verifyDevice(credentials.user, credentials.password))) throw new AppError('download.deviceOnly', 403);

    const etag = `"${grant.sha256}"`;
    const ifRange = request.headers['if-range'];
    const range = ifRange !== undefined && ifRange !== etag ? 'whole' : parseRange(request.headers.range, grant.size);
    const headers: OutgoingHttpHeaders = { 'accept-ranges': 'bytes', etag, 'cache-control': 'private, no-store', 'content-type': 'application/octet-stream' };
    if (range === 'unsatisfiable') {
      reply.headers({ 'accept-ranges': 'bytes', etag, 'content-range': `bytes */${grant.size}` });
      throw new AppError('download.rangeInvalid', 416);
    }
    const { start, end } = range === 'whole' ? { start: 0, end: grant.size - 1 } : range;
    if (range !== 'whole') headers['content-range'] = `bytes ${start}-${end}/${grant.size}`;
    headers['content-length'] = String(Math.max(0, end - start + 1));
    const status = range === 'whole' ? 200 : 206;
    if (request.method === 'HEAD' || grant.size === 0) return reply.code(status).headers(headers).send();
    // The body goes out through reused buffers (send-file.ts), on the raw response.
    reply.hijack();
    reply.raw.writeHead(status, headers);
    await sendFileRange(reply.raw, absolute, start, end).catch((err: unknown) => {
      request.log.error({ err, file: grant.file }, 'download interrupted by a server fault');
      reply.raw.destroy();
    });
  };
  // Our own HEAD: Fastify's automatic one would read the whole file to discard it.
  http.route({ method: ['GET', 'HEAD'], url: '/device/files/:name', exposeHeadRoute: false, handler: serve });
}
