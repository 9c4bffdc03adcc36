import { materials, translate } from '@panelfleet/contract';
import { pageOffset } from '../../http/access.js';
import { Refusal } from '../../refusal.js';
import type { Router } from '../../http/router.js';
import { parseRange } from '../downloads/range.js';
import { mediaTypeOf } from './media-type.js';
import type { MaterialService } from './service.js';
import type { UploadService } from '../uploads/service.js';

/** Room for the multipart framing and the small fields around a file of the maximum size. */
const MULTIPART_OVERHEAD = 64 * 1024;

const drain = async (stream: AsyncIterable<unknown>) => {
  for await (const chunk of stream) void chunk;
};

export function materialRoutes(
  router: Router,
  service: MaterialService,
  uploads: Pick<UploadService, 'claim'>,
) {
  router.add(materials.insertVideo, async ({ session, params, ip, language }) => ({
    hhtStatus: 'success',
    hhtMsg: translate(language, 'material.mediaUploaded'),
    dataObject: await service.videoFromUpload(session.user, ip, uploads, params.uploadId),
  }));

  router.add(materials.listMaterials, async ({ session, params }) => {
    const orgId = session.user.orgId;
    const list = await service.list(orgId, params.fileType);
    return { hhtStatus: 'success', listObject: list, totalRecords: list.length };
  });

  router.add(materials.pageMaterials, async ({ session, params }) => {
    const { rows, total } = await service.page(
      session.user.orgId,
      { fileType: params.fileType || undefined, fileName: params.fileName || undefined },
      pageOffset(params.start, params.size),
      params.size,
    );
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });

  router.add(materials.insertMaterial, async ({ request, session, ip, language }) => {
    // A declared size over the largest kind's limit is refused before a byte of the body is read.
    if (Number(request.headers['content-length'] ?? 0) > materials.VIDEO_MAX_BYTES + MULTIPART_OVERHEAD)
      throw new Refusal('material.videoTooLarge', 'tooLarge');
    if (!request.isMultipart()) throw new Refusal('material.fileMissing', 'invalid');
    const part = await request.file({
      limits: { fileSize: materials.VIDEO_MAX_BYTES, files: 1 },
      throwFileSizeLimit: false,
    });
    if (!part) throw new Refusal('material.fileMissing', 'invalid');
    try {
      if (part.fieldname !== 'uiFile') throw new Refusal('material.fileMissing', 'invalid');
      const fileType = part.fields.fileType;
      const declared =
        fileType && 'value' in fileType ? Number(fileType.value) : materials.MATERIAL_FILE_TYPES.audio;
      const kind = materials.MATERIAL_KIND_OF[declared];
      if (!kind) throw new Refusal('material.fileTypeInvalid', 'invalid');
      const limit = materials.MAX_BYTES_OF[kind];
      let received = 0;
      let cut = false;
      // The multipart limit is the largest kind's; each kind's own limit is counted here.
      async function* limited(source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          if (cut) continue;
          received += chunk.length;
          if (received > limit) {
            cut = true;
            continue;
          }
          yield chunk;
        }
      }
      const stored = await service.upload(
        session.user,
        ip,
        part.filename,
        { stream: limited(part.file), truncated: () => cut || part.file.truncated },
        kind,
      );
      const message = kind === 'audio' ? 'material.uploaded' : 'material.mediaUploaded';
      return { hhtStatus: 'success', hhtMsg: translate(language, message), dataObject: stored };
    } finally {
      // Whatever was refused, the browser is still sending: read the rest so it gets the reply.
      await drain(part.file);
    }
  });

  router.add(materials.deleteMaterial, async ({ session, params, ip, language }) => {
    const kind = await service.remove(session.user, ip, params.materialId);
    const message = kind === 'audio' ? 'material.deleted' : 'material.mediaDeleted';
    return { hhtStatus: 'success', hhtMsg: translate(language, message) };
  });

  // The console's <audio> element asks for ranges to seek; the session scopes it to the company.
  router.add(materials.materialFile, async ({ session, params, request, reply }) => {
    const orgId = session.user.orgId;
    const file = await service.fileOf(orgId, params.materialId);
    const { record } = file;
    const size = record.file_size;
    const range = parseRange(request.headers.range, size);
    reply
      .type(mediaTypeOf(record.file_type, record.format as materials.MediaFormat))
      .header('accept-ranges', 'bytes')
      .header('etag', `"${record.sha256}"`)
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff');
    if (range === 'unsatisfiable') {
      reply.header('content-range', `bytes */${size}`);
      throw new Refusal('download.rangeInvalid', 'rangeNotSatisfiable');
    }
    const { start, end } = range === 'whole' ? { start: 0, end: size - 1 } : range;
    if (range !== 'whole') reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
    reply.header('content-length', String(end - start + 1));
    // Streamed through the server from either store: the console's CSP admits only its own origin.
    return service.read(file, { start, end });
  });

  materialThumbnailRoute(router, service);
}

function materialThumbnailRoute(router: Router, service: MaterialService) {
  router.add(materials.materialThumbnail, async ({ session, params, reply }) => {
    const thumbnail = await service.thumbnailOf(session.user.orgId, params.materialId);
    reply.type('image/webp').header('cache-control', 'private, max-age=3600');
    return thumbnail;
  });
}
