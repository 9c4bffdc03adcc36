export * from './regions.js';
