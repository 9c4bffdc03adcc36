// The operation log is written by every module through the foundation (foundation.ts).
export { OperationLog } from './repository.js';
