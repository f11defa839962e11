/** Reading PUT /api/agents/profile's form: its text fields, photo and logo within the one upload limit. */
import type { Context } from 'hono';
import { HttpError, readBody } from '../../platform/http.ts';
import { UPLOAD_BODY_LIMIT } from '../images/public/images.server.ts';
import { PROFILE_MESSAGES } from './profile.ts';

/**
 * A file field of the multipart form, if one was chosen (browsers send an empty part when none
 * was). Its size needs no check of its own: the whole body was within UPLOAD_BODY_LIMIT.
 */
export async function formFile(value: FormDataEntryValue | null): Promise<Buffer | undefined> {
  if (value === null || value === '') return undefined;
  if (typeof value === 'string') throw new HttpError(400, PROFILE_MESSAGES.notAnImage);
  if (value.size === 0) return undefined;
  return Buffer.from(await value.arrayBuffer());
}

/**
 * The multipart (or url-encoded) body of PUT /api/agents/profile, read within the one upload limit:
 * the text fields, the photo and the logo together (decision 0027).
 */
export async function readProfileForm(c: Context): Promise<FormData> {
  const contentType = c.req.header('content-type') ?? '';
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(contentType)) {
    throw new HttpError(415, 'Send the profile as multipart/form-data');
  }
  const body = await readBody(c, UPLOAD_BODY_LIMIT);
  try {
    return await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new HttpError(400, 'The request body is not a valid form');
  }
}
