/**
 * Images for upload tests, made with sharp in memory (no fixture files), and the calls the profile
 * screen makes: the JSON upload routes and the multipart PUT of the profile.
 */
import sharp from 'sharp';
import type { Db } from '../../src/platform/db.ts';
import { IP_HEADER, SESSION_COOKIE, type AuthSuite, type Client } from './auth-suite.ts';

/** A small opaque PNG of one colour, `width` x `height`. */
export const png = (width = 64, height = 64, colour = '#1f6feb'): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

export const dataUrl = (bytes: Buffer, type = 'image/png'): string => `data:${type};base64,${bytes.toString('base64')}`;

/** Rows in the images table: a refusal must leave it as it was. */
export async function imageCount(db: Db): Promise<number> {
  const [row] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM images');
  return row?.count ?? 0;
}

/** PUT /api/agents/profile as the screen sends it: multipart, with the client's cookie and the site's Origin. */
export function putProfile(suite: AuthSuite, client: Client, form: FormData): Promise<Response> {
  const headers: Record<string, string> = { origin: suite.api.origin, [IP_HEADER]: client.ip };
  if (client.session !== undefined) headers.cookie = `${SESSION_COOKIE}=${client.session}`;
  return suite.api.fetch('/api/agents/profile', { method: 'PUT', headers, body: form });
}

/** A multipart form of `fields` (and files). */
export function formOf(fields: Record<string, string | Blob>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return form;
}

/** A complete profile as the screen's form sends it (strings), with a unique e-mail. */
export function profileFields(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    first_name: 'Dana',
    last_name: 'Whitfield',
    email: `dana.${Math.random().toString(36).slice(2)}@example.com`,
    phone: '1 (631) 555-0142',
    brokerage: 'Harbor Point Realty (demo)',
    license_number: '10401234567',
    website: 'danawhitfield.example.com',
    professional_title: 'Licensed Real Estate Salesperson',
    brokerage_street: '12 Main Street',
    brokerage_city: 'Northport',
    brokerage_state: 'ny',
    brokerage_zip: '11768',
    show_profile_photo: 'true',
    show_logo: 'false',
    ...overrides,
  };
}

/** `bytes` as a file part of a form. */
export const blobOf = (bytes: Buffer, type = 'image/png'): Blob => new Blob([new Uint8Array(bytes)], { type });
