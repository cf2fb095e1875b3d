/**
 * The JSON shapes of the gateway's HTTP API, shared by its routes and the dashboard's typed client
 * (`dashboard/src/api/*`), and exported for anyone writing a client. One file per area of routes.
 */

export type * from './catalog.js';
export type * from './cron.js';
export type * from './errors.js';
export type * from './files.js';
export type * from './run-records.js';
export type * from './runs.js';
export type * from './sessions.js';
export type * from './settings.js';
export type * from './sites.js';
export type * from './usage.js';
