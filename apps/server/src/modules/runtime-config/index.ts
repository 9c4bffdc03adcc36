import type { Foundation } from '../../foundation.js';
import { runtimeConfigRoutes } from './routes.js';

export function installRuntimeConfig({ router, config }: Foundation): void {
  runtimeConfigRoutes(router, {
    serverLevel: config.serverLevel,
    roleFlag: config.roleFlag,
    title: config.title,
    netSpeedUrl: config.netSpeedUrl,
    captcha: config.captcha,
  });
}
