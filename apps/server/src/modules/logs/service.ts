import { dayBounds, device, logs, type Language } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { pageOffset } from '../../http/access.js';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import { customerScope } from '../customers/policy.js';
import { contentOf, type OperationLog } from '../operation-log/repository.js';
import type { LogRepository } from './repository.js';

/** Characters a download reads at a time. */
const DOWNLOAD_CHUNK = 256 * 1024;

/**
 * The operation log (the caller's organisation) and the abnormal logs (spec 3 section 2.8): a
 * distributor's staff reach the logs of the customers under it, a customer manager those of its
 * own company (the same reach as the customer lists, customers/policy.ts).
 */
export class LogService {
  constructor(private readonly deps: { repository: LogRepository; clock: Clock; log: OperationLog }) {}

  /** A page of the organisation's operation log, its content in the caller's language. */
  async operations(
    orgId: number,
    params: { start: number; size: number; content?: string },
    language: Language,
  ) {
    const { rows, total } = await this.deps.repository.operationPage(
      orgId,
      pageOffset(params.start, params.size),
      params.size,
      params.content,
    );
    return {
      total,
      rows: rows.map((r): logs.OperationLogRecord => ({
        id: r.id,
        ...contentOf(r, language),
        userName: r.user_name,
        operationType: r.action,
        operatorIp: r.ip,
        operatorTime: Number(r.created_at),
      })),
    };
  }

  async abnormal(
    caller: SessionUser,
    params: {
      start: number;
      size: number;
      deviceKey?: string;
      uploadDate?: string;
      utcOffset?: number;
      model?: string;
      appName?: string;
    },
  ) {
    const day = params.uploadDate ? dayBounds(params.uploadDate, params.utcOffset) : undefined;
    const { rows, total } = await this.deps.repository.abnormalPage(
      customerScope(caller),
      pageOffset(params.start, params.size),
      params.size,
      {
        deviceKey: params.deviceKey,
        model: params.model,
        appName: params.appName,
        from: day?.from,
        to: day?.to,
      },
    );
    return {
      total,
      rows: rows.map((r): logs.AbnormalLogRecord => ({
        id: r.id,
        fileName: r.file_name,
        deviceKey: r.device_key,
        deviceName: r.device_name ?? '',
        uploadDate: Number(r.upload_date),
        occurredAt: Number(r.occurred_at),
        model: r.model,
        appName: r.app_name,
        status: r.status === 1 ? '1' : '0',
        textLength: Number(r.text_length),
        processedBy: r.processed_by ?? '',
      })),
    };
  }

  private async find(caller: SessionUser, id: number) {
    const found = await this.deps.repository.findAbnormal(customerScope(caller), id);
    if (!found) throw new Refusal('abnormalLog.notFound', 'notFound');
    return found;
  }

  /** One page of the text: the dialog never loads a large log whole. */
  async view(caller: SessionUser, id: number, page: number) {
    const found = await this.find(caller, id);
    const length = Number(found.text_length);
    const pages = Math.max(1, Math.ceil(length / logs.LOG_PAGE_CHARS));
    if (page > pages) throw new Refusal('abnormalLog.pageInvalid', 'invalid');
    const text = await this.deps.repository.textSlice(
      customerScope(caller),
      id,
      (page - 1) * logs.LOG_PAGE_CHARS,
      logs.LOG_PAGE_CHARS,
    );
    return { text, page, pages, textLength: length, fileName: found.file_name };
  }

  /** The whole text, read in slices (a 16 MiB log is never one string in memory). */
  async download(caller: SessionUser, id: number) {
    const found = await this.find(caller, id);
    const scope = customerScope(caller);
    const repository = this.deps.repository;
    const length = Number(found.text_length);
    async function* slices() {
      for (let offset = 0; offset < length; offset += DOWNLOAD_CHUNK)
        yield Buffer.from(await repository.textSlice(scope, id, offset, DOWNLOAD_CHUNK), 'utf8');
    }
    return { fileName: found.file_name, body: slices() };
  }

  /** A log upload holds at most 16 MiB of UTF-8 text (protocol 5.4). */
  checkUpload(log: device.AbnormalLog) {
    if (Buffer.byteLength(log.text, 'utf8') > device.MAX_LOG_UPLOAD_BYTES)
      throw new Refusal('abnormalLog.tooLarge', 'tooLarge');
  }

  async process(caller: SessionUser, id: number, ip: string) {
    const found = await this.find(caller, id);
    if (found.status === 1) throw new Refusal('abnormalLog.alreadyProcessed', 'conflict');
    const changed = await this.deps.repository.markProcessed(
      customerScope(caller),
      id,
      caller.userName,
      this.deps.clock.now(),
    );
    // Two operators at once: the second finds it processed.
    if (!changed) throw new Refusal('abnormalLog.alreadyProcessed', 'conflict');
    await this.deps.log.recordBy(caller, ip, 'processAbnormalLog', {
      k: 'abnormalLog',
      v: { file: found.file_name, device: found.device_key },
    });
  }
}
