import { uploads } from '@panelfleet/contract';
import type { FastifyInstance } from 'fastify';
import type { Router, SessionCallContext } from '../../http/router.js';
import type { UploadService } from './service.js';

/**
 * The tus endpoints, declared in the contract with their access like every call: the router
 * admits the caller first, then the raw request goes to tus (Fastify does not read its body).
 */
export function uploadRoutes(http: FastifyInstance, router: Router, service: UploadService) {
  // tus bodies are streamed by tus itself: Fastify must leave them unread.
  http.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
  const raw =
    (id: boolean) =>
    async ({ session, language, request, reply }: SessionCallContext<unknown>) => {
      const uploadId = id ? (request.params as { uploadId?: string }).uploadId : undefined;
      // A refusal (another company's upload, bytes on another instance) is answered by the edge, in the envelope.
      const upload = await service.admit(session.user, uploadId);
      reply.hijack();
      await service.handle(session.user, language, { req: request.raw, res: reply.raw }, upload);
      return undefined;
    };
  router.add(uploads.createUpload, raw(false));
  router.add(uploads.uploadOffset, raw(true));
  router.add(uploads.uploadChunk, raw(true));
  router.add(uploads.cancelUpload, raw(true));
  router.add(uploads.getUpload, async ({ session, params }) => ({
    hhtStatus: 'success',
    dataObject: await service.state(session.user, params.uploadId),
  }));
  router.add(uploads.uploadLimits, async () => ({ hhtStatus: 'success', dataObject: service.limits() }));
}
