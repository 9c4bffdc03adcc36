import { accounts } from '@panelfleet/contract';
import { Refusal } from '../../refusal.js';
import type { Router } from '../../http/router.js';
import { AVATAR_MAX_BYTES, type AvatarService } from './service.js';

export function avatarRoutes(router: Router, avatars: AvatarService) {
  router.add(accounts.uploadAvatar, async ({ request, session, ip }) => {
    if (!request.isMultipart()) throw new Refusal('personal.avatarType', 'invalid');
    const part = await request.file({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } });
    if (!part) throw new Refusal('personal.avatarType', 'invalid');
    const content = await part.toBuffer().catch((error: unknown) => {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
        throw new Refusal('personal.avatarTooLarge', 'tooLarge');
      throw error;
    });
    const avatar = await avatars.replace(session.user, content, ip);
    return { hhtStatus: 'success', dataObject: { avatar } };
  });

  router.add(accounts.avatarImage, async ({ session, reply }) => {
    const image = await avatars.imageOf(session.user);
    if (!image) throw new Refusal('common.notFound', 'notFound');
    reply.type('image/jpeg').header('cache-control', 'private, max-age=86400');
    return image;
  });
}
