export * from './envelope.js';
export * from './rules.js';
export * from './menus.js';
export * from './call.js';
export * from './messages.js';
export * as auth from './calls/auth.js';
export * as accounts from './calls/accounts.js';
export * as device from './device/index.js';
export { allCalls } from './calls/index.js';
