/**
 * The signed-in agent's own profile: GET and PUT /api/agents/profile, and the photo and logo
 * upload routes (POST and DELETE /api/upload/profile-photo and /api/upload/logo). No route takes an
 * agent id: each reads and changes only the session's agent, in ONE statement that also checks the
 * session (sessionAgentCte) and stores any image (storeImageCte), so a refusal stores nothing.
 */
import { Hono, type Context } from 'hono';
import type { Db } from '../../server/db.ts';
import { CACHE_TAGS, type PurgeAfterWrite } from '../../server/edge-cache.ts';
import { HttpError, parseOrThrow, readBody, readJson, route, type BodyLimit } from '../../server/http.ts';
import { sessionAgentCte, sessionOf, sessionParams } from '../auth/access.server.ts';
import { PRINT_SIDES } from '../net-sheet/print-sizes.ts';
import { PLEASE_LOG_IN } from '../auth/sessions.server.ts';
import {
  base64ImageBytes,
  imageParams,
  printCopyParams,
  processImage,
  storeImageCte,
  storePrintCopyCte,
  UPLOAD_BODY_LIMIT,
  type ImageRules,
  type ProcessedImage,
} from '../images/images.server.ts';
import {
  LOGO_SIZE,
  logoUploadSchema,
  PHOTO_SIZE,
  photoUploadSchema,
  PROFILE_MESSAGES,
  profileSchema,
  type Profile,
  type ProfileFields,
} from './profile.ts';

const PROFILE_COLUMNS = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'slug',
  'brokerage',
  'license_number',
  'website',
  'professional_title',
  'brokerage_street',
  'brokerage_city',
  'brokerage_state',
  'brokerage_zip',
  'show_profile_photo',
  'show_logo',
  'profile_photo',
  'logo',
] as const satisfies readonly (keyof Profile)[];

const RETURNING = PROFILE_COLUMNS.map((column) => `agents.${column}`).join(', ');

/** The fields PUT writes, in the order of its parameters. */
const WRITTEN_FIELDS = profileSchema.keyof().options;

/** A profile photo: a square JPEG, re-encoded whatever came in. */
const PHOTO_RULES: ImageRules = { ...PHOTO_SIZE, accepts: ['jpeg', 'png', 'webp'], printSide: PRINT_SIDES.photo };
/** A business logo: PNG (keeps transparency; an SVG holding only shapes, see svg-logo.ts, is rasterised). */
const LOGO_RULES: ImageRules = { ...LOGO_SIZE, accepts: ['jpeg', 'png', 'webp', 'svg'], printSide: PRINT_SIDES.logo };

const pleaseLogIn = () => new HttpError(401, PLEASE_LOG_IN);

/**
 * A file field of the multipart form, if one was chosen (browsers send an empty part when none
 * was). Its size needs no check of its own: the whole body was within UPLOAD_BODY_LIMIT.
 */
async function formFile(value: FormDataEntryValue | null): Promise<Buffer | undefined> {
  if (value === null || value === '') return undefined;
  if (typeof value === 'string') throw new HttpError(400, PROFILE_MESSAGES.notAnImage);
  if (value.size === 0) return undefined;
  return Buffer.from(await value.arrayBuffer());
}

/**
 * The multipart (or url-encoded) body of PUT /api/agents/profile, read within the one upload limit:
 * the text fields, the photo and the logo together (decision 0027).
 */
async function readProfileForm(c: Context): Promise<FormData> {
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

/** The Postgres unique constraint on agents' e-mail was violated (two saves racing for one address). */
const isEmailConflict = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  'code' in error &&
  error.code === '23505' &&
  'constraint' in error &&
  error.constraint === 'agents_email_key';

interface SavedRow {
  signed_in: boolean;
  email_taken: boolean;
  profile: Profile | null;
}

/**
 * One statement: checks the session, refuses an e-mail another agent has, stores the new images and
 * writes the profile. Images are stored only when the profile is written.
 */
async function saveProfile(
  db: Db,
  c: Context,
  fields: ProfileFields,
  images: { photo: ProcessedImage | undefined; logo: ProcessedImage | undefined },
): Promise<Profile> {
  const params: unknown[] = [...sessionParams(sessionOf(c)), ...WRITTEN_FIELDS.map((field) => fields[field])];
  const sets = WRITTEN_FIELDS.map((field, index) => `${field} = $${index + 3}`);
  const ctes = [
    sessionAgentCte(1),
    `taken AS (SELECT 1 FROM agents, me WHERE lower(agents.email) = lower($${3 + WRITTEN_FIELDS.indexOf('email')})
                AND agents.id <> me.id)`,
  ];
  const writable = 'EXISTS (SELECT 1 FROM me) AND NOT EXISTS (SELECT 1 FROM taken)';
  for (const [name, column, image] of [
    ['stored_photo', 'profile_photo', images.photo],
    ['stored_logo', 'logo', images.logo],
  ] as const) {
    if (!image) continue;
    ctes.push(storeImageCte(name, params.length + 1, writable));
    params.push(...imageParams(image));
    ctes.push(storePrintCopyCte(`${name}_print`, params.length + 1, writable));
    params.push(...printCopyParams(image), image.url);
    sets.push(`${column} = $${params.length}`);
  }
  let row: SavedRow | undefined;
  try {
    [row] = await db.query<SavedRow>(
      `WITH ${ctes.join(',\n')},
       updated AS (UPDATE agents SET ${sets.join(', ')}, updated_at = now() FROM me
                    WHERE agents.id = me.id AND NOT EXISTS (SELECT 1 FROM taken)
                    RETURNING ${RETURNING})
       SELECT EXISTS (SELECT 1 FROM me) AS signed_in, EXISTS (SELECT 1 FROM taken) AS email_taken,
              (SELECT row_to_json(updated) FROM updated) AS profile`,
      params,
    );
  } catch (error) {
    if (isEmailConflict(error)) throw emailTaken();
    throw error;
  }
  if (!row?.signed_in) throw pleaseLogIn();
  if (row.email_taken || !row.profile) throw emailTaken();
  return row.profile;
}

const emailTaken = () => new HttpError(409, PROFILE_MESSAGES.emailTaken, { email: PROFILE_MESSAGES.emailTaken });

interface UploadKind {
  path: string;
  column: 'profile_photo' | 'logo';
  toggle: 'show_profile_photo' | 'show_logo';
  rules: ImageRules;
  read: (c: Context, limit: BodyLimit) => Promise<{ imageData: string; show: boolean | undefined }>;
}

const UPLOADS: UploadKind[] = [
  {
    path: '/upload/profile-photo',
    column: 'profile_photo',
    toggle: 'show_profile_photo',
    rules: PHOTO_RULES,
    read: async (c, limit) => {
      const body = await readJson(c, photoUploadSchema, limit);
      return { imageData: body.imageData, show: body.showProfilePhoto };
    },
  },
  {
    path: '/upload/logo',
    column: 'logo',
    toggle: 'show_logo',
    rules: LOGO_RULES,
    read: async (c, limit) => {
      const body = await readJson(c, logoUploadSchema, limit);
      return { imageData: body.imageData, show: body.showLogo };
    },
  },
];

export function profileRoutes(db: Db, purge: PurgeAfterWrite): Hono {
  const app = new Hono();

  /** Runs `sql` (an UPDATE … FROM me … RETURNING, or a SELECT) and answers the profile, or 401. */
  async function answerProfile(c: Context, sql: string, params: unknown[]) {
    const [profile] = await db.query<Profile>(sql, params);
    if (!profile) throw pleaseLogIn();
    return c.json({ success: true, profile });
  }

  /** Answers a saved profile, once the public agent answer cached before the save is purged. */
  async function answerSaved(c: Context, sql: string, params: unknown[]) {
    const response = await answerProfile(c, sql, params);
    await purge(c.req.raw, [CACHE_TAGS.agent(sessionOf(c).agentId)]);
    return response;
  }

  route(app, '/agents/profile', {
    GET: (c) =>
      answerProfile(
        c,
        `WITH ${sessionAgentCte(1)} SELECT ${RETURNING} FROM agents JOIN me ON me.id = agents.id`,
        sessionParams(sessionOf(c)),
      ),
    PUT: async (c) => {
      const form = await readProfileForm(c);
      const text = Object.fromEntries([...form.entries()].filter(([key]) => key !== 'profile_photo' && key !== 'logo'));
      const fields = parseOrThrow(profileSchema, text);
      const photoBytes = await formFile(form.get('profile_photo'));
      const logoBytes = await formFile(form.get('logo'));
      const photo = photoBytes ? await processImage(photoBytes, PHOTO_RULES) : undefined;
      const logo = logoBytes ? await processImage(logoBytes, LOGO_RULES) : undefined;
      const profile = await saveProfile(db, c, fields, { photo, logo });
      await purge(c.req.raw, [CACHE_TAGS.agent(sessionOf(c).agentId)]);
      return c.json({ success: true, profile });
    },
  });

  for (const kind of UPLOADS) {
    route(app, kind.path, {
      POST: async (c) => {
        const { imageData, show } = await kind.read(c, UPLOAD_BODY_LIMIT);
        const bytes = base64ImageBytes(imageData, UPLOAD_BODY_LIMIT, 'data-url');
        const image = await processImage(bytes, kind.rules);
        return answerSaved(
          c,
          `WITH ${sessionAgentCte(1)}, ${storeImageCte('stored', 3, 'EXISTS (SELECT 1 FROM me)')},
           ${storePrintCopyCte('stored_print', 8, 'EXISTS (SELECT 1 FROM me)')}
           UPDATE agents SET ${kind.column} = $11, ${kind.toggle} = COALESCE($12::boolean, agents.${kind.toggle}),
                  updated_at = now()
             FROM me WHERE agents.id = me.id
           RETURNING ${RETURNING}`,
          [...sessionParams(sessionOf(c)), ...imageParams(image), ...printCopyParams(image), image.url, show ?? null],
        );
      },
      DELETE: (c) =>
        answerSaved(
          c,
          `WITH ${sessionAgentCte(1)}
           UPDATE agents SET ${kind.column} = NULL, ${kind.toggle} = false, updated_at = now()
             FROM me WHERE agents.id = me.id
           RETURNING ${RETURNING}`,
          sessionParams(sessionOf(c)),
        ),
    });
  }
  return app;
}
