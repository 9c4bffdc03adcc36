export * from './topics.js';
export * from './orders.js';
export * from './payloads.js';
export * from './settings.js';
export * from './calls.js';
