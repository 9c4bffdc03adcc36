import { PassThrough } from 'node:stream';
import { reports, type Language } from '@panelfleet/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Router, SessionUser } from '../../http/router.js';
import {
  ClientGone,
  documentTitle,
  fileName,
  writePreview,
  writeWorkbook,
  type DocumentContext,
} from './documents.js';
import type { ReportService } from './service.js';

const links = { preview: reports.PREVIEW_PATH, excel: reports.EXCEL_PATH };
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

interface DocumentRequest {
  session: { user: SessionUser };
  params: reports.DocumentParams;
  language: Language;
  request: FastifyRequest;
  reply: FastifyReply;
}

export function reportRoutes(router: Router, service: ReportService, clock: Clock) {
  router.add(reports.ureportErrorLog, async ({ session, params }) => {
    const { rows, total } = await service.page('errorLog', session.user.orgId, params);
    return { hhtStatus: 'success', listObject: rows as reports.ErrorLogRow[], totalRecords: total, ...links };
  });
  router.add(reports.ureportRptDeviceTime, async ({ session, params }) => {
    const { rows, total } = await service.page('deviceTime', session.user.orgId, params);
    return {
      hhtStatus: 'success',
      listObject: rows as reports.DeviceTimeRow[],
      totalRecords: total,
      ...links,
    };
  });
  router.add(reports.ureportRptAppTime, async ({ session, params }) => {
    const { rows, total } = await service.page('appTime', session.user.orgId, params);
    return { hhtStatus: 'success', listObject: rows as reports.AppTimeRow[], totalRecords: total, ...links };
  });
  router.add(reports.ureportProofOfPlay, async ({ session, params }) => {
    const { rows, total } = await service.page('proofOfPlay', session.user.orgId, params);
    return {
      hhtStatus: 'success',
      listObject: rows as reports.ProofOfPlayRow[],
      totalRecords: total,
      ...links,
    };
  });
  router.add(reports.reportDataRange, async ({ session, params }) => ({
    hhtStatus: 'success',
    dataObject: await service.dataRange(session.user.orgId, params.report, params.timeZone),
  }));
  router.add(reports.ureportOperationLog, async ({ session, params, language }) => {
    const { rows, total } = await service.operationPage(session.user.orgId, params, language);
    return { hhtStatus: 'success', listObject: rows, totalRecords: total, ...links };
  });

  /**
   * Preview and export: the plan (and the device, when one is named) is checked before a byte
   * is sent, so a refusal is still a clean fail; then the rows stream as they are read.
   */
  async function document(
    form: 'preview' | 'excel',
    { session, params, language, request, reply }: DocumentRequest,
  ) {
    const orgId = session.user.orgId;
    const plan = await service.prepare(params.report, orgId, params);
    const ctx: DocumentContext = {
      kind: params.report,
      plan,
      language: params.lang ?? language,
      filter: { deviceName: params.deviceName, deviceKey: params.deviceKey },
      userName: session.user.userName,
      now: clock.now(),
    };
    const out = new PassThrough();
    // A client that goes away ends the writer (its next wait fails) and so the reading.
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) out.destroy();
    });
    const write = form === 'excel' ? writeWorkbook : writePreview;
    write(ctx, service.rows(params.report, orgId, params, ctx.language), out).catch((err: unknown) => {
      if (err instanceof ClientGone) {
        request.log.info({ report: params.report, form }, 'report document abandoned by the client');
        return;
      }
      request.log.error({ err, report: params.report, form }, 'report document failed');
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    });
    reply.header('cache-control', 'private, no-store');
    if (form === 'excel') {
      const name = fileName(ctx);
      const title = documentTitle(ctx).split(' · ')[0]!;
      reply
        .type(XLSX)
        .header(
          'content-disposition',
          `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(`${title} ${name}`)}`,
        );
    } else reply.type('text/html; charset=utf-8');
    return out;
  }

  router.add(reports.reportPreview, (ctx) => document('preview', ctx));
  router.add(reports.reportExcel, (ctx) => document('excel', ctx));
}
