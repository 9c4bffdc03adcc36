import fs from 'node:fs';
import { materials, translate } from '@panelfleet/contract';
import { Refusal } from '../../refusal.js';
import type { Router } from '../../http/router.js';
import { parseRange } from '../downloads/range.js';
import { AUDIO_MEDIA_TYPES } from './audio-type.js';
import type { MaterialService } from './service.js';

/** Room for the multipart framing and the small fields around a file of the maximum size. */
const MULTIPART_OVERHEAD = 64 * 1024;

const drain = async (stream: AsyncIterable<unknown>) => {
  for await (const chunk of stream) void chunk;
};

export function materialRoutes(router: Router, service: MaterialService) {
  router.add(materials.listMaterials, async ({ session, params }) => {
    const orgId = session.user.orgId;
    const list = await service.list(orgId, params.fileType);
    return { hhtStatus: 'success', listObject: list, totalRecords: list.length };
  });

  router.add(materials.insertMaterial, async ({ request, session, ip, language }) => {
    // A declared size over the limit is refused before a byte of the body is read.
    if (Number(request.headers['content-length'] ?? 0) > materials.AUDIO_MAX_BYTES + MULTIPART_OVERHEAD)
      throw new Refusal('deviceManage.FileSize', 'tooLarge');
    if (!request.isMultipart()) throw new Refusal('material.fileMissing', 'invalid');
    const part = await request.file({
      limits: { fileSize: materials.AUDIO_MAX_BYTES, files: 1 },
      throwFileSizeLimit: false,
    });
    if (!part) throw new Refusal('material.fileMissing', 'invalid');
    try {
      if (part.fieldname !== 'uiFile') throw new Refusal('material.fileMissing', 'invalid');
      const fileType = part.fields.fileType;
      const declared =
        fileType && 'value' in fileType
          ? String(fileType.value)
          : String(materials.MATERIAL_FILE_TYPES.audio);
      if (declared !== String(materials.MATERIAL_FILE_TYPES.audio))
        throw new Refusal('material.fileTypeInvalid', 'invalid');
      const stored = await service.upload(session.user, ip, part.filename, {
        stream: part.file,
        truncated: () => part.file.truncated,
      });
      return { hhtStatus: 'success', hhtMsg: translate(language, 'material.uploaded'), dataObject: stored };
    } finally {
      // Whatever was refused, the browser is still sending: read the rest so it gets the reply.
      await drain(part.file);
    }
  });

  router.add(materials.deleteMaterial, async ({ session, params, ip, language }) => {
    await service.remove(session.user, ip, params.materialId);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'material.deleted') };
  });

  // The console's <audio> element asks for ranges to seek; the session scopes it to the company.
  router.add(materials.materialFile, async ({ session, params, request, reply }) => {
    const orgId = session.user.orgId;
    const { record, path } = await service.fileOf(orgId, params.materialId);
    const size = record.file_size;
    const range = parseRange(request.headers.range, size);
    reply
      .type(AUDIO_MEDIA_TYPES[record.format as materials.AudioFormat])
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
    return fs.createReadStream(path, { start, end });
  });
}
