/** A site, as the sites routes send it: never a password or its hash. */
export interface SiteJson {
  name: string;
  /** `<name>.<gateway.sites.domain>`. */
  host: string;
  /** Where the sites listener serves it (absent when the listener is off). */
  url?: string;
  /** Its folder, relative to the workspace. */
  folder: string;
  createdAt: number;
  updatedAt: number;
  /** The basic-auth login's user, or null when the site is open. */
  auth: { user: string } | null;
  spa: boolean;
}

/** `GET /sites`. */
export interface SiteListJson {
  sites: SiteJson[];
}
