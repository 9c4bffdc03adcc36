import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { SessionUser } from '../../http/router.js';

export interface OperationEntry {
  orgId: number;
  userId: number | null;
  userName: string;
  userType: string;
  action: string;
  content: string;
  ip: string;
}

/** Every account write leaves a row: who, what, from where, when. Its screen comes with reports. */
export class OperationLog {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
  ) {}

  /** A write by a signed-in user, in that user's organisation. */
  recordBy(caller: SessionUser, ip: string, action: string, content: string): Promise<void> {
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
    await this.db
      .insertInto('operation_logs')
      .values({
        org_id: entry.orgId,
        user_id: entry.userId,
        user_name: entry.userName,
        user_type: entry.userType,
        action: entry.action,
        content: entry.content.slice(0, 500),
        ip: entry.ip,
        created_at: this.now(),
      })
      .execute();
  }
}
