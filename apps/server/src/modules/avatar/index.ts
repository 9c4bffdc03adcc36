import type { Foundation } from '../../foundation.js';
import type { UserRepository } from '../users/repository.js';
import { avatarRoutes } from './routes.js';
import { AvatarService } from './service.js';

export function installAvatar(f: Foundation, needs: { users: UserRepository }): void {
  avatarRoutes(
    f.router,
    new AvatarService({ users: needs.users, log: f.operations, files: f.fileStore.within('avatars') }),
  );
}
