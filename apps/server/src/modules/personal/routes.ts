import type { Kysely } from 'kysely';
import { accounts, translate } from '@panelfleet/contract';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import type { Router } from '../../http/router.js';
import type { OperationLog } from '../operation-log/repository.js';

/** Personal center: a user changes only their own e-mail and phone. */
export function personalRoutes(router: Router, deps: { db: Kysely<Database>; log: OperationLog }) {
  router.add(accounts.updatePersonal, async ({ params, session, ip, language }) => {
    if (params.userId !== session.user.id) throw new AppError('common.forbidden', 403);
    await deps.db.updateTable('users').set({ phone: params.phone, email: params.email }).where('id', '=', session.user.id).execute();
    await deps.log.recordBy(session.user, ip, 'updatePersonal', 'changed e-mail and phone');
    return { hhtStatus: 'success', hhtMsg: translate(language, 'personal.updated') };
  });
}
