export * from './topics.js';
export * from './orders.js';
export * from './payloads.js';
export * from './settings.js';
export * from './calls.js';
export * from './receipts.js';
export * from './retry.js';
export * from './removal.js';
