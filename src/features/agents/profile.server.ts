/**
 * The signed-in agent's own profile: GET and PUT /api/agents/profile, and the photo and logo
 * upload routes (POST and DELETE /api/upload/profile-photo and /api/upload/logo). No route takes an
 * agent id: each reads and changes only the session's agent, in ONE statement that also checks the
 * session (sessionAgentCte) and stores any image (storeImageCte), so a refusal stores nothing.
 *
 * A new e-mail address is not written (issue 21, finding 1): it waits as pending_email until the
 * link sent to it is followed (POST /api/auth/confirm-email-change), and the old address is told,
 * with a link that undoes the change. The answer is the same whether or not another account has
 * the new address (that owner is told instead, and the change cannot be confirmed).
 */
import * as z from 'zod/mini';
import type { Context } from 'hono';
import type { Db } from '../../platform/db.ts';
import { CACHE_TAGS, type PurgeAfterWrite } from '../../platform/edge-cache.ts';
import { HttpError, parseOrThrow } from '../../platform/http.ts';
import { apiGroup, ok } from '../../platform/operation.ts';
import { formFile, readProfileForm } from './profile-form.server.ts';
import { sessionAgentCte, sessionOf, sessionParams } from '../auth/public/access.server.ts';
import {
  confirmEmailChangeEmail,
  emailChangeNoticeEmail,
  emailChangeTakenEmail,
} from '../sign-in/public/auth-emails.ts';
import {
  countHitsStatement,
  LIMITS,
  rateCheck,
  secondsLeft,
  TooManyAttempts,
} from '../../platform/rate-limit.server.ts';
import { PRINT_SIDES } from '../net-sheet/public/print-sizes.ts';
import { PLEASE_LOG_IN } from '../auth/public/sessions.server.ts';
import { issueTokenCtes, newToken, TOKEN_HOURS } from '../auth/public/tokens.server.ts';
import type { MailContext } from '../email/public/email.server.ts';
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
} from '../images/public/images.server.ts';
import {
  LOGO_SIZE,
  logoUploadSchema,
  PHOTO_SIZE,
  photoUploadSchema,
  profileAnswerSchema,
  profileSaveAnswerSchema,
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
  'pending_email',
] as const satisfies readonly (keyof Profile)[];

const RETURNING = PROFILE_COLUMNS.map((column) => `agents.${column}`).join(', ');

/** The fields PUT writes, in the order of its parameters. */
const WRITTEN_FIELDS = z.keyof(profileSchema).options;

/** A profile photo: a square JPEG, re-encoded whatever came in. */
const PHOTO_RULES: ImageRules = { ...PHOTO_SIZE, accepts: ['jpeg', 'png', 'webp'], printSide: PRINT_SIDES.photo };
/** A business logo: PNG (keeps transparency; an SVG holding only shapes, see svg-logo.ts, is rasterised). */
const LOGO_RULES: ImageRules = { ...LOGO_SIZE, accepts: ['jpeg', 'png', 'webp', 'svg'], printSide: PRINT_SIDES.logo };

const pleaseLogIn = () => new HttpError(401, PLEASE_LOG_IN);

interface SavedRow {
  signed_in: boolean;
  /** Seconds into the e-mail-change counter's window, when the address changed. */
  change_elapsed: number | null;
  /** Null (while signed in) when the agent was over the e-mail-change limit: nothing was written. */
  profile: Profile | null;
  delivery_ids: number[] | null;
}

/** What a save did besides the profile: the address a link (or notice) was queued to, if any. */
interface Saved {
  profile: Profile;
  emailChangeSentTo: string | null;
  deliveryIds: number[];
}

/**
 * One statement: checks the session, stores the new images and writes the profile. A new e-mail
 * (other than the current one in any case) is counted against the agent's limit and, within it,
 * stored as pending with a change_email token bound to it (unless another account has it) and an
 * undo token bound to the old address, and the two e-mails queued; over the limit nothing is
 * written. Images are stored only when the profile is written.
 */
async function saveProfile(
  db: Db,
  c: Context,
  mail: MailContext,
  fields: ProfileFields,
  images: { photo: ProcessedImage | undefined; logo: ProcessedImage | undefined },
): Promise<Saved> {
  const params: unknown[] = [...sessionParams(sessionOf(c)), ...WRITTEN_FIELDS.map((field) => fields[field])];
  const newEmail = `$${3 + WRITTEN_FIELDS.indexOf('email')}::text`;
  // The address itself changes only in case (same mailbox); any other change waits (pending_email).
  const sets = WRITTEN_FIELDS.map((field, index) =>
    field === 'email'
      ? `email = CASE WHEN lower(agents.email) = lower(${newEmail}) THEN ${newEmail} ELSE agents.email END`
      : `${field} = $${index + 3}`,
  );
  const siteUrl = mail.siteUrl(c.req.raw);
  const confirm = newToken();
  const undo = newToken();
  const confirmMessage = confirmEmailChangeEmail({ token: confirm.token, siteUrl });
  const takenMessage = emailChangeTakenEmail({ siteUrl });
  const notice = emailChangeNoticeEmail({ token: undo.token, siteUrl, newEmail: fields.email });
  const limit = rateCheck(LIMITS.emailChangePerAgent, `email-change:agent:${sessionOf(c).agentId}`);
  const counting = countHitsStatement([limit], {
    firstParam: params.length + 1,
    onlyIf: 'EXISTS (SELECT 1 FROM change)',
  });
  params.push(...counting.params);
  const p = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const ctes = [
    sessionAgentCte(1),
    `change AS (
       SELECT agents.id, agents.email AS old_email,
              EXISTS (SELECT 1 FROM agents o WHERE lower(o.email) = lower(${newEmail}) AND o.id <> agents.id) AS taken
         FROM agents JOIN me ON me.id = agents.id
        WHERE lower(agents.email) <> lower(${newEmail})
     )`,
    `counted AS (${counting.sql})`,
    `allowed AS (SELECT me.id FROM me WHERE NOT EXISTS (SELECT 1 FROM counted WHERE counted.hits > ${p(limit.limit)}))`,
    `changing AS (SELECT change.* FROM change JOIN allowed ON allowed.id = change.id)`,
    `free_change AS (SELECT * FROM changing WHERE NOT taken)`,
  ];
  const writable = 'EXISTS (SELECT 1 FROM allowed)';
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
  const hours = p(TOKEN_HOURS.change_email);
  const undoHours = p(TOKEN_HOURS.undo_email_change);
  const [row] = await db.query<SavedRow>(
    `WITH ${ctes.join(',\n')}${issueTokenCtes('free_change', p(confirm.hash), "'change_email'", hours, {
      email: newEmail,
      name: 'confirm_',
    })}${issueTokenCtes('changing', p(undo.hash), "'undo_email_change'", undoHours, {
      email: 'changing.old_email',
      name: 'undo_',
      keepOlder: true,
    })},
     dropped AS (
       -- The link of an earlier pending change to an address another account has: none is issued.
       DELETE FROM auth_tokens t USING changing WHERE t.agent_id = changing.id AND t.purpose = 'change_email'
          AND changing.taken
     ),
     queued AS (
       INSERT INTO email_deliveries (kind, to_email, to_name, subject, html, text)
       SELECT 'change_email', ${newEmail}, NULL,
              CASE WHEN taken THEN ${p(takenMessage.subject)} ELSE ${p(confirmMessage.subject)} END,
              CASE WHEN taken THEN ${p(takenMessage.html)} ELSE ${p(confirmMessage.html)} END,
              CASE WHEN taken THEN ${p(takenMessage.text)} ELSE ${p(confirmMessage.text)} END
         FROM changing
       UNION ALL
       SELECT 'email_change_notice', old_email, NULL, ${p(notice.subject)}, ${p(notice.html)}, ${p(notice.text)}
         FROM changing
       RETURNING id
     ),
     updated AS (UPDATE agents SET ${sets.join(', ')},
                        pending_email = CASE WHEN EXISTS (SELECT 1 FROM changing) THEN ${newEmail}
                                             ELSE agents.pending_email END,
                        updated_at = now()
                   FROM allowed WHERE agents.id = allowed.id
                 RETURNING ${RETURNING})
     SELECT EXISTS (SELECT 1 FROM me) AS signed_in,
            (SELECT elapsed FROM counted) AS change_elapsed,
            (SELECT row_to_json(updated) FROM updated) AS profile,
            (SELECT array_agg(id) FROM queued) AS delivery_ids`,
    params,
  );
  if (!row?.signed_in) throw pleaseLogIn();
  if (!row.profile) throw new TooManyAttempts(secondsLeft(limit, row.change_elapsed ?? 0));
  const deliveryIds = row.delivery_ids ?? [];
  return { profile: row.profile, emailChangeSentTo: deliveryIds.length > 0 ? fields.email : null, deliveryIds };
}

/** The agent's photo or logo: where it is kept, its show toggle, and how it is stored. */
interface UploadKind {
  column: 'profile_photo' | 'logo';
  toggle: 'show_profile_photo' | 'show_logo';
  rules: ImageRules;
}

const PHOTO: UploadKind = { column: 'profile_photo', toggle: 'show_profile_photo', rules: PHOTO_RULES };
const LOGO: UploadKind = { column: 'logo', toggle: 'show_logo', rules: LOGO_RULES };

/** The file parts PUT /api/agents/profile takes. */
const PROFILE_FILES = ['profile_photo', 'logo'] as const;

interface ProfileDeps {
  db: Db;
  purge: PurgeAfterWrite;
  mail: MailContext;
}

/** Runs `sql` (an UPDATE … FROM me … RETURNING, or a SELECT) and answers the profile, or 401. */
async function answerProfile(c: Context, db: Db, sql: string, params: unknown[]) {
  const [profile] = await db.query<Profile>(sql, params);
  if (!profile) throw pleaseLogIn();
  return c.json({ success: true, profile });
}

/** Answers a saved profile, once the public agent answer cached before the save is purged. */
async function answerSaved(c: Context, { db, purge }: ProfileDeps, sql: string, params: unknown[]) {
  const response = await answerProfile(c, db, sql, params);
  await purge(c.req.raw, [CACHE_TAGS.agent(sessionOf(c).agentId)]);
  return response;
}

/** Stores the image sent as a data URL as the agent's photo or logo; `show` sets its toggle (kept when absent). */
async function saveUpload(c: Context, deps: ProfileDeps, kind: UploadKind, imageData: string, show?: boolean) {
  const bytes = base64ImageBytes(imageData, UPLOAD_BODY_LIMIT, 'data-url');
  const image = await processImage(bytes, kind.rules);
  return answerSaved(
    c,
    deps,
    `WITH ${sessionAgentCte(1)}, ${storeImageCte('stored', 3, 'EXISTS (SELECT 1 FROM me)')},
     ${storePrintCopyCte('stored_print', 8, 'EXISTS (SELECT 1 FROM me)')}
     UPDATE agents SET ${kind.column} = $11, ${kind.toggle} = COALESCE($12::boolean, agents.${kind.toggle}),
            updated_at = now()
       FROM me WHERE agents.id = me.id
     RETURNING ${RETURNING}`,
    [...sessionParams(sessionOf(c)), ...imageParams(image), ...printCopyParams(image), image.url, show ?? null],
  );
}

/** Removes the agent's photo or logo, and turns its toggle off. */
const removeUpload = (c: Context, deps: ProfileDeps, kind: UploadKind) =>
  answerSaved(
    c,
    deps,
    `WITH ${sessionAgentCte(1)}
     UPDATE agents SET ${kind.column} = NULL, ${kind.toggle} = false, updated_at = now()
       FROM me WHERE agents.id = me.id
     RETURNING ${RETURNING}`,
    sessionParams(sessionOf(c)),
  );

/** The agent's own profile, photo and logo (see above). */
export const profileApi = apiGroup(
  (deps: ProfileDeps) => deps,
  (op) => [
    op({
      method: 'GET',
      path: '/api/agents/profile',
      access: 'agent',
      summary: "The agent's profile",
      tag: 'Profile',
      success: ok('The profile', profileAnswerSchema),
      handler: (c, { db }) =>
        answerProfile(
          c,
          db,
          `WITH ${sessionAgentCte(1)} SELECT ${RETURNING} FROM agents JOIN me ON me.id = agents.id`,
          sessionParams(sessionOf(c)),
        ),
    }),
    op({
      method: 'PUT',
      path: '/api/agents/profile',
      access: 'agent',
      summary: "Saves the agent's profile, with a new photo or logo as file parts",
      tag: 'Profile',
      body: {
        'multipart/form-data': { schemas: [profileSchema], files: PROFILE_FILES },
        'application/x-www-form-urlencoded': { schemas: [profileSchema] },
      },
      uploads: { profile_photo: PHOTO_SIZE, logo: LOGO_SIZE },
      success: ok(
        'Saved; a new e-mail waits as pending_email until the link sent to it is followed',
        profileSaveAnswerSchema,
      ),
      errors: [429],
      handler: async (c, { db, purge, mail }) => {
        const form = await readProfileForm(c);
        const text = Object.fromEntries(
          [...form.entries()].filter(([key]) => key !== 'profile_photo' && key !== 'logo'),
        );
        const fields = parseOrThrow(profileSchema, text);
        const photoBytes = await formFile(form.get('profile_photo'));
        const logoBytes = await formFile(form.get('logo'));
        const photo = photoBytes ? await processImage(photoBytes, PHOTO_RULES) : undefined;
        const logo = logoBytes ? await processImage(logoBytes, LOGO_RULES) : undefined;
        const saved = await saveProfile(db, c, mail, fields, { photo, logo });
        mail.deliverSoon(saved.deliveryIds, c.req.raw);
        await purge(c.req.raw, [CACHE_TAGS.agent(sessionOf(c).agentId)]);
        return c.json({ success: true, profile: saved.profile, email_change_sent_to: saved.emailChangeSentTo });
      },
    }),
    op({
      method: 'POST',
      path: '/api/upload/profile-photo',
      access: 'agent',
      summary: "Sets the agent's photo (a data URL, square-cropped)",
      tag: 'Profile',
      json: photoUploadSchema,
      uploads: { imageData: PHOTO_SIZE },
      success: ok('Saved', profileAnswerSchema),
      handler: async (c, deps, input) => {
        const body = await input.body(UPLOAD_BODY_LIMIT);
        return saveUpload(c, deps, PHOTO, body.imageData, body.showProfilePhoto);
      },
    }),
    op({
      method: 'DELETE',
      path: '/api/upload/profile-photo',
      access: 'agent',
      summary: "Removes the agent's photo",
      tag: 'Profile',
      success: ok('Removed', profileAnswerSchema),
      handler: (c, deps) => removeUpload(c, deps, PHOTO),
    }),
    op({
      method: 'POST',
      path: '/api/upload/logo',
      access: 'agent',
      summary: "Sets the agent's logo (a data URL)",
      tag: 'Profile',
      json: logoUploadSchema,
      uploads: { imageData: LOGO_SIZE },
      success: ok('Saved', profileAnswerSchema),
      handler: async (c, deps, input) => {
        const body = await input.body(UPLOAD_BODY_LIMIT);
        return saveUpload(c, deps, LOGO, body.imageData, body.showLogo);
      },
    }),
    op({
      method: 'DELETE',
      path: '/api/upload/logo',
      access: 'agent',
      summary: "Removes the agent's logo",
      tag: 'Profile',
      success: ok('Removed', profileAnswerSchema),
      handler: (c, deps) => removeUpload(c, deps, LOGO),
    }),
  ],
);
