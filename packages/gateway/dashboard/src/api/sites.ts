import type { SiteJson, SiteListJson } from '../../../src/http/api-types/index.js';
import { request } from './http';

const sitePath = (name: string) => `/sites/${encodeURIComponent(name)}`;

export function listSites(signal?: AbortSignal) {
  return request<SiteListJson>('/sites', signal === undefined ? {} : { signal });
}

/** A new site with an empty folder (`spa`: unknown paths answer with its index.html). */
export function createSite(name: string, spa: boolean) {
  return request<SiteJson>('/sites', { method: 'POST', body: { name, spa } });
}

/** Deletes the site; `keepFiles` leaves its folder on disk. */
export function deleteSite(name: string, keepFiles: boolean) {
  return request<void>(sitePath(name), { method: 'DELETE', query: { keepFiles } });
}

/** Puts the site behind a basic-auth login (the password is stored hashed, never shown again). */
export function setSiteAuth(name: string, user: string, password: string) {
  return request<SiteJson>(`${sitePath(name)}/auth`, { method: 'PUT', body: { user, password } });
}

export function clearSiteAuth(name: string) {
  return request<void>(`${sitePath(name)}/auth`, { method: 'DELETE' });
}
