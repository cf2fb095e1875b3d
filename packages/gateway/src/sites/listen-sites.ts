import { createServer } from 'node:http';
import type { SitesSettings } from '@boxagnts/workspace';
import { GatewayError } from '../gateway-error.js';
import type { SitesHandler } from './sites-server.js';

/** The sites listener of a running gateway. */
export interface SitesListener {
  /** `http://<domain>:<port>`: site `<name>` is at `http://<name>.<domain>:<port>/`. */
  readonly url: string;
  readonly port: number;
  /** The URL of one site. */
  siteUrl(name: string): string;
  close(): Promise<void>;
}

/** The sites port: `gateway.sites.port`, else one above the API port (any free one when that is 0). */
export function sitesPort(settings: SitesSettings, apiPort: number): number {
  return settings.port ?? (apiPort === 0 ? 0 : apiPort + 1);
}

/**
 * Serves the sites on a listener of their own, so that their origin (`<name>.<domain>:<port>`)
 * never equals the API's: a page an agent wrote cannot send the API's requests as same-origin.
 */
export async function listenSites(
  handler: SitesHandler,
  settings: SitesSettings,
  apiPort: number,
): Promise<SitesListener> {
  const server = createServer(handler);
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(sitesPort(settings, apiPort), settings.host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  }).catch((error: unknown) => {
    throw new GatewayError({
      reason: 'configuration',
      message: `Cannot serve sites on ${settings.host}:${sitesPort(settings, apiPort)}: ${(error as Error).message}. Set gateway.sites.port to a free port, or gateway.sites.enabled to false.`,
      cause: error,
    });
  });
  handler.listening(port);
  return {
    url: `http://${settings.domain}:${port}`,
    port,
    siteUrl: (name) => `http://${name}.${settings.domain}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        handler.listening(undefined);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
