/**
 * The JSON shapes of the gateway's HTTP API, shared by its routes and the dashboard's typed client
 * (`dashboard/src/api/*`), and exported for anyone writing a client. One file per area of routes.
 */
export type * from './errors.js';
