import type { Kysely } from 'kysely';
import { oplog, translate, type Language } from '@panelfleet/contract';
import type { Database } from '../../db/schema.js';
import type { SessionUser } from '../../http/router.js';
import { actingToken } from '../../http/acting-token.js';

export interface OperationEntry {
  orgId: number;
  userId: number | null;
  userName: string;
  userType: string;
  action: oplog.OperationAction;
  content: oplog.OperationContent;
  ip: string;
}

/** The languages a row's search text holds, so that a search in either finds it. */
const SEARCHED: Language[] = ['en-US', 'zh-CN'];
/** The `content` column's width (migration 003), shared by the languages. */
const CONTENT_WIDTH = 500;

/**
 * The text the log's search reads: the content in every console language, one per line. The
 * words shown are made from `detail` in the reader's language; this is only what a search matches.
 */
export function searchText(content: oplog.OperationContent): string {
  const each = Math.floor(CONTENT_WIDTH / SEARCHED.length) - 1;
  return SEARCHED.map((language) =>
    oplog.operationText(content, (key, vars) => translate(language, key, vars)).slice(0, each),
  ).join('\n');
}

/**
 * Every write leaves a row: who, what, from where, when. The content is kept structured
 * (`detail`, migration 035) and put into words in the reader's language when read
 * (docs/ARCHITECTURE.md, "Reports and logs").
 */
export class OperationLog {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
  ) {}

  /** A write by a signed-in user, in that user's organisation. */
  recordBy(
    caller: SessionUser,
    ip: string,
    action: oplog.OperationAction,
    content: oplog.OperationContent,
  ): Promise<void> {
    return this.record({
      orgId: caller.orgId,
      userId: caller.id,
      userName: caller.userName,
      userType: caller.userType,
      action,
      content,
      ip,
    });
  }

  async record(entry: OperationEntry): Promise<void> {
    // A write done with an API token names the token (issue 28): "… [API token ci-deploy]".
    const token = actingToken();
    const content: oplog.OperationContent = token
      ? {
          k: 'viaToken',
          v: { content: oplog.term(`content.${entry.content.k}`, entry.content.v), token: token.name },
        }
      : entry.content;
    await this.db
      .insertInto('operation_logs')
      .values({
        org_id: entry.orgId,
        user_id: entry.userId,
        user_name: entry.userName,
        user_type: entry.userType,
        action: entry.action,
        content: searchText(content),
        detail: JSON.stringify(content),
        ip: entry.ip,
        created_at: this.now(),
      })
      .execute();
  }
}

/** A row as read: its words in `language`, from its structured content, or the stored text of a row written before it had one. */
export function contentOf(
  row: { content: string; detail: string | null },
  language: Language,
): { content: string; detail: oplog.OperationContent | null } {
  if (row.detail === null) return { content: row.content, detail: null };
  const detail = oplog.operationContent.parse(JSON.parse(row.detail));
  return { content: oplog.operationText(detail, (key, vars) => translate(language, key, vars)), detail };
}
