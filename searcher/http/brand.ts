/**
 * @module searcher/http/brand
 * The name and logo at the top of every page (`searcher.brand.name`,
 * `searcher.brand.logo`), so a team's search reads as its own. The logo is a
 * file on the searcher's machine, read once at start and served at `/logo`:
 * the pages' Content-Security-Policy loads images from the searcher alone.
 * A searcher process serves one configuration, so the brand is set once for
 * the process when it starts (server.ts), before it listens.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'hono';
import type { Conf } from '../../shared/conf.js';
import { HzError } from '../../shared/errors.js';

export interface Brand {
  name: string;
  logo?: { bytes: Buffer; type: string };
}

/** Image types a logo may be, by file extension. */
export const LOGO_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
};

const DEFAULT_BRAND: Brand = { name: 'hazelnut' };
let current: Brand = DEFAULT_BRAND;

/** The brand the configuration names; a logo file that is missing or not an image type is an error naming the property and file. */
export function loadBrand(conf: Conf): Brand {
  const name = conf.get('searcher.brand.name') || DEFAULT_BRAND.name;
  const logoName = conf.get('searcher.brand.logo');
  if (!logoName) return { name };
  const type = LOGO_TYPES[path.extname(logoName).toLowerCase()];
  if (!type)
    throw new HzError('HZ_ERR_CONF_PROPERTY', `searcher.brand.logo names ${logoName}, which is not an image file (${Object.keys(LOGO_TYPES).join(', ')})`);
  const file = conf.resolveFile(logoName, { optional: true });
  if (!file) throw new HzError('HZ_ERR_CONF_FILE', `searcher.brand.logo names ${logoName}, which does not exist (looked in ${conf.confDir})`);
  return { name, logo: { bytes: fs.readFileSync(file), type } };
}

/** Sets the brand of this process's pages. */
export function useBrand(b: Brand): void {
  current = b;
}

export function brand(): Brand {
  return current;
}

/** `/logo`: the configured logo, or 404 when there is none. */
export function logoResponse(c: Context): Response {
  const logo = current.logo;
  if (!logo) return c.text('no logo configured (searcher.brand.logo)\n', 404);
  return c.body(new Uint8Array(logo.bytes), 200, { 'Content-Type': logo.type, 'Cache-Control': 'max-age=3600' });
}
