import { relative } from 'node:path';
import { type SiteInfo, workspaceSites } from '@boxagnts/workspace';
import { Hono } from 'hono';
import { z } from 'zod';
import { GatewayError } from '../gateway-error.js';
import type { SitesHandler } from '../sites/sites-server.js';
import type { SiteJson, SiteListJson } from './api-types/index.js';
import type { GatewayEnv, GatewayServices } from './gateway-env.js';
import { parseWith, readJsonBody } from './read-body.js';
import { storeCall } from './store-call.js';

const createSiteSchema = z.strictObject({
  name: z.string().max(200),
  /** Unknown paths answer with the site's index.html (a single-page app). */
  spa: z.boolean().optional(),
});
const authSchema = z.strictObject({ user: z.string().max(200), password: z.string().max(1024) });
const deleteQuerySchema = z.strictObject({ keepFiles: z.enum(['true', 'false']).optional() });

/** What the API says about a site: never a password or its hash, only whether a login is set and its user. */
function siteView(services: GatewayServices, sites: SitesHandler | undefined, site: SiteInfo): SiteJson {
  const url = sites?.siteUrl(site.name);
  return {
    name: site.name,
    host: `${site.name}.${services.workspace.config.gateway.sites.domain}`,
    ...(url === undefined ? {} : { url }),
    folder: relative(services.workspace.dir, site.folder),
    createdAt: site.createdAt,
    updatedAt: site.updatedAt,
    auth: site.authUser === undefined ? null : { user: site.authUser },
    spa: site.spa,
  };
}

/**
 * Sites management on the API origin (behind the API's token and Origin checks): list, create, get,
 * delete (`?keepFiles=true` keeps the folder), set or clear a site's basic-auth login. The sites
 * themselves are served by the sites listener, never here.
 */
export function sitesRoutes(services: GatewayServices, sitesHandler?: SitesHandler): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const sites = () => workspaceSites(services.workspace);
  const requireSite = async (name: string) => {
    const site = await storeCall(() => sites().get(name));
    if (site === undefined)
      throw new GatewayError({ reason: 'not-found', message: `No site "${name}": list them with GET /sites.` });
    return site;
  };
  app.get('/sites', async (context) =>
    context.json<SiteListJson>({
      sites: (await storeCall(() => sites().list())).map((site) => siteView(services, sitesHandler, site)),
    }),
  );
  app.post('/sites', async (context) => {
    const body = await readJsonBody(context, createSiteSchema);
    const site = await storeCall(() => sites().create(body.name, body.spa === undefined ? {} : { spa: body.spa }));
    return context.json(siteView(services, sitesHandler, site), 201);
  });
  app.get('/sites/:name', async (context) =>
    context.json(siteView(services, sitesHandler, await requireSite(context.req.param('name')))),
  );
  app.delete('/sites/:name', async (context) => {
    const query = parseWith(deleteQuerySchema, context.req.query(), 'query');
    await storeCall(() => sites().delete(context.req.param('name'), { keepFiles: query.keepFiles === 'true' }));
    return context.body(null, 204);
  });
  app.put('/sites/:name/auth', async (context) => {
    const body = await readJsonBody(context, authSchema);
    await storeCall(() => sites().setAuth(context.req.param('name'), body.user, body.password));
    return context.json(siteView(services, sitesHandler, await requireSite(context.req.param('name'))));
  });
  app.delete('/sites/:name/auth', async (context) => {
    const name = context.req.param('name');
    await requireSite(name);
    if (!(await storeCall(() => sites().clearAuth(name)))) {
      throw new GatewayError({ reason: 'not-found', message: `Site "${name}" has no login to clear.` });
    }
    return context.body(null, 204);
  });
  return app;
}
