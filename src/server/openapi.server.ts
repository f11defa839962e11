/**
 * The API's OpenAPI 3.1 document (decision 0018), served at GET /api/openapi.json and rendered for
 * integrators on /developers/api. One entry per operation, holding the very zod schemas its handler
 * parses with, so the document cannot drift from what the routes accept; who may call each one
 * comes from ROUTE_ACCESS. tests/integration/openapi.test.ts fails when an operation here has no
 * route, or a route has no operation here.
 */
import * as z from 'zod';
import { leadIdSchema } from '../features/admin/admin-leads.server.ts';
import { adminActivityResponseSchema, adminOverviewResponseSchema } from '../features/admin/admin-overview.ts';
import { leadTimelineResponseSchema } from '../features/admin/lead-timeline.ts';
import { agentParams } from '../features/agents/agents.server.ts';
import {
  LOGO_SIZE,
  logoUploadSchema,
  PHOTO_SIZE,
  photoUploadSchema,
  profileAnswerSchema,
  profileSaveAnswerSchema,
  profileSchema,
} from '../features/agents/profile.ts';
import { publicAgentSchema } from '../features/agents/public-agent.ts';
import { SESSION_COOKIE } from '../features/auth/sessions.server.ts';
import {
  emailOnlySchema,
  loginSchema,
  resetPasswordSchema,
  signupSchema,
  tokenSchema,
} from '../features/auth/auth-schemas.ts';
import { fubSaveSchema } from '../features/crm/fub-integration.ts';
import { fubAnswerSchema, fubChangeSchema } from '../features/crm/fub-integration.ts';
import { leadSyncAnswerSchema, leadSyncRequestSchema } from '../features/crm/lead-sync.ts';
import { leadCrmParams } from '../features/crm/lead-sync.server.ts';
import { overviewResponseSchema } from '../features/dashboard/overview.ts';
import { estimateParams } from '../features/estimate/estimate-row.server.ts';
import { comparisonParams } from '../features/net-sheet/net-sheet.server.ts';
import { imageFile } from '../features/images/images.server.ts';
import { describeStoredSize, MAX_UPLOAD_BODY_BYTES, type StoredSize } from '../features/images/uploads.ts';
import {
  agentPageLeadSchema,
  contactLeadSchema,
  estimatePageLeadSchema,
  leadAnswerSchema,
} from '../features/leads/lead.ts';
import { adminLeadExportQuerySchema, EXPORT_HEADERS, leadExportQuerySchema } from '../features/leads/lead-export.ts';
import {
  adminLeadListQuerySchema,
  adminLeadListResponseSchema,
  clearLeadsResponseSchema,
  leadFilterSchema,
  leadListQuerySchema,
  leadListResponseSchema,
} from '../features/leads/lead-list.ts';
import {
  detailedEstimateRequestSchema,
  offersRequestSchema,
  rangeQuerySchema,
  reverseRequestSchema,
} from '../features/net-sheet/requests.ts';
import {
  comparisonAnswerSchema,
  detailedEstimateAnswerSchema,
  rangeAnswerSchema,
  reverseAnswerSchema,
  sheetAnswerSchema,
} from '../features/net-sheet/sheet-answer.ts';
import {
  agentDefaultsSchema,
  agentSettingsResponseSchema,
  agentSettingsSavedSchema,
  calculatorSettingsSchema,
} from '../features/settings/agent-settings.ts';
import {
  deleteImageSchema,
  imageListSchema,
  imageOrderSchema,
  imagesChangedSchema,
  imageUploadedSchema,
  SHOWCASE_IMAGE_SIZE,
  showcaseFieldsSchema,
} from '../features/showcase/showcase-settings.ts';
import { siteLogosSavedSchema, siteLogoSettingsSchema } from '../features/site/site-images.ts';
import { groupDigits } from '../ui/money.ts';
import { API_GROUPS, GROUP_NAMES } from './api-groups.server.ts';
import { created, json, ok, type Access, type OperationDoc, type RequestContent } from './operation.ts';
import { LEGACY_ACCESS } from './route-access.ts';

/** An operation of a group not yet declared: who may call it is in LEGACY_ACCESS. */
type LegacyOperation = Omit<OperationDoc, 'access'>;

const PROFILE_FILES = ['profile_photo', 'logo'] as const;

/** A page of a leads CSV export (decision 0029): the file is the pages' bodies end to end. */
const leadCsvPage = {
  status: 200,
  description:
    'A page of the CSV: the first starts with the byte order mark and the header line, the others are rows only. ' +
    `Ask for the next page with cursor set to ${EXPORT_HEADERS.next} until an answer has none.`,
  media: 'text/csv',
  headers: {
    [EXPORT_HEADERS.rows]: 'Leads in this page',
    [EXPORT_HEADERS.total]: 'Leads that match the filters (first page only)',
    [EXPORT_HEADERS.next]: 'The cursor of the next page (absent on the last page)',
  },
} as const;

/** Every API operation. Order: as a reader meets them (the public site, accounts, agents, admins). */
export const LEGACY_OPERATIONS: readonly LegacyOperation[] = [
  // The public site.
  {
    method: 'GET',
    path: '/api/agents/public/:slug',
    summary: "An active agent's public profile and calculator defaults",
    tag: 'Agents',
    params: agentParams,
    success: ok('The agent', publicAgentSchema),
    errors: [404, 410],
  },
  {
    method: 'POST',
    path: '/api/estimates',
    summary: 'A new estimate: the quick one, or with `details` a detailed net sheet',
    tag: 'Estimates',
    body: json(detailedEstimateRequestSchema),
    success: created(
      'The stored estimate, and its sheet when details were sent',
      detailedEstimateAnswerSchema.partial({ sheet: true }),
    ),
    errors: [404],
  },
  {
    method: 'GET',
    path: '/api/estimates/:uuid',
    summary: 'A stored estimate (a detailed one with its sheet)',
    tag: 'Estimates',
    params: estimateParams,
    success: ok('The estimate', detailedEstimateAnswerSchema.omit({ sheet: true })),
    errors: [404],
  },
  {
    method: 'GET',
    path: '/api/estimates/:uuid/pdf',
    summary: "The estimate's net sheet as a PDF, headed with the seller's name, the property and the closing date",
    tag: 'Estimates',
    params: estimateParams,
    success: { status: 200, description: 'The PDF', media: 'application/pdf' },
    errors: [404, 429],
  },
  {
    method: 'POST',
    path: '/api/estimates/reverse',
    summary: 'The lowest whole-dollar price that nets the seller `target_net`, stored as an estimate',
    tag: 'Net sheet',
    body: json(reverseRequestSchema),
    success: created('The price and the stored estimate with its sheet', reverseAnswerSchema),
    errors: [404, 422],
  },
  {
    method: 'GET',
    path: '/api/estimates/:uuid/sheet',
    summary: "An estimate's net sheet, the details it was computed from and the form's defaults",
    tag: 'Net sheet',
    params: estimateParams,
    success: ok('The sheet', sheetAnswerSchema),
    errors: [404],
  },
  {
    method: 'GET',
    path: '/api/estimates/:uuid/range',
    summary: "The net to seller at prices from `percent` below to `percent` above the estimate's",
    tag: 'Net sheet',
    params: estimateParams,
    query: rangeQuerySchema,
    success: ok('The points', rangeAnswerSchema),
    errors: [404],
  },
  {
    method: 'POST',
    path: '/api/offers',
    summary: "Two to four offers weighed on an estimate's terms, stored as one link",
    tag: 'Net sheet',
    body: json(offersRequestSchema),
    success: created('The comparison', comparisonAnswerSchema),
    errors: [404],
  },
  {
    method: 'GET',
    path: '/api/offers/:uuid',
    summary: 'A stored offer comparison',
    tag: 'Net sheet',
    params: comparisonParams,
    success: ok('The comparison', comparisonAnswerSchema),
    errors: [404],
  },
  {
    method: 'GET',
    path: '/api/offers/:uuid/pdf',
    summary: 'A stored offer comparison as a PDF: the offers side by side, then their sheets line by line',
    tag: 'Net sheet',
    params: comparisonParams,
    success: { status: 200, description: 'The PDF', media: 'application/pdf' },
    errors: [404, 429],
  },
  {
    method: 'POST',
    path: '/api/leads',
    summary:
      "A seller's request to be contacted: the contact form, the agent page's unlock or the estimate page's form",
    tag: 'Leads',
    body: json(contactLeadSchema, agentPageLeadSchema, estimatePageLeadSchema),
    success: created(
      "The lead was recorded (the same answer when it joins a recent one), with what became of the visitor's estimate e-mail",
      leadAnswerSchema,
    ),
    errors: [404, 429],
  },
  {
    method: 'GET',
    path: '/api/images/:file',
    summary: 'An uploaded image by its content hash (cached for a year)',
    tag: 'Images',
    params: imageFile,
    success: { status: 200, description: 'The image', media: 'image/*' },
    errors: [404],
  },
  // Accounts.
  {
    method: 'POST',
    path: '/api/auth/signup',
    summary: "An agent's new account; a verification e-mail follows",
    tag: 'Accounts',
    body: json(signupSchema),
    success: created('Signed up'),
    errors: [409, 429],
  },
  {
    method: 'POST',
    path: '/api/auth/verify-email',
    summary: "Confirms an agent's address with the e-mailed token",
    tag: 'Accounts',
    body: json(tokenSchema),
    success: ok('Verified'),
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    summary: 'Signs in: sets the session cookie',
    tag: 'Accounts',
    body: json(loginSchema),
    success: ok('Signed in'),
    errors: [401, 429],
  },
  {
    method: 'POST',
    path: '/api/auth/resend-verification',
    summary: 'Sends the verification e-mail again',
    tag: 'Accounts',
    body: json(emailOnlySchema),
    success: ok('Sent, if the address has an unverified account'),
    errors: [429],
  },
  {
    method: 'POST',
    path: '/api/auth/forgot-password',
    summary: 'E-mails a password-reset link',
    tag: 'Accounts',
    body: json(emailOnlySchema),
    success: ok('Sent, if the address has an account'),
    errors: [429],
  },
  {
    method: 'POST',
    path: '/api/auth/reset-password',
    summary: 'Sets a new password with the e-mailed token; every session ends',
    tag: 'Accounts',
    body: json(resetPasswordSchema),
    success: ok('Password changed'),
  },
  {
    method: 'POST',
    path: '/api/auth/logout',
    summary: "Ends this browser's session on the server (the agent's other sessions stay)",
    tag: 'Accounts',
    success: ok('Signed out'),
  },
  {
    method: 'POST',
    path: '/api/auth/confirm-email-change',
    summary: "Makes the pending new address the agent's e-mail, with the token e-mailed to it; every session ends",
    tag: 'Accounts',
    body: json(tokenSchema),
    success: ok('E-mail changed'),
    errors: [409, 429],
  },
  {
    method: 'POST',
    path: '/api/auth/undo-email-change',
    summary: 'Gives the account its old address back, with the token e-mailed there; every session ends',
    tag: 'Accounts',
    body: json(tokenSchema),
    success: ok('Change undone'),
    errors: [409, 429],
  },
  {
    method: 'GET',
    path: '/api/auth/me',
    summary: 'The signed-in agent',
    tag: 'Accounts',
    success: ok('The agent'),
  },
  {
    method: 'POST',
    path: '/api/auth/logout-everywhere',
    summary: "Ends every session of the agent's",
    tag: 'Accounts',
    success: ok('Signed out everywhere'),
  },
  // The agent's dashboard.
  {
    method: 'GET',
    path: '/api/agents/me/overview',
    summary: "The agent's dashboard figures, chart and recent activity",
    tag: 'Dashboard',
    success: ok('The overview', overviewResponseSchema),
  },
  {
    method: 'GET',
    path: '/api/agents/me/settings',
    summary: "The agent's calculator defaults and net-sheet settings",
    tag: 'Dashboard',
    success: ok('The settings', agentSettingsResponseSchema),
  },
  {
    method: 'PATCH',
    path: '/api/agents/me/settings',
    summary: "Saves the agent's calculator defaults or net-sheet settings (the site's logo fields: admins only)",
    tag: 'Dashboard',
    body: json(calculatorSettingsSchema, agentDefaultsSchema, siteLogoSettingsSchema),
    success: ok('Saved', z.union([agentSettingsSavedSchema, siteLogosSavedSchema])),
    errors: [403],
  },
  {
    method: 'GET',
    path: '/api/agents/profile',
    summary: "The agent's profile",
    tag: 'Profile',
    success: ok('The profile', profileAnswerSchema),
  },
  {
    method: 'PUT',
    path: '/api/agents/profile',
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
  },
  {
    method: 'POST',
    path: '/api/upload/profile-photo',
    summary: "Sets the agent's photo (a data URL, square-cropped)",
    tag: 'Profile',
    body: json(photoUploadSchema),
    uploads: { imageData: PHOTO_SIZE },
    success: ok('Saved', profileAnswerSchema),
  },
  {
    method: 'DELETE',
    path: '/api/upload/profile-photo',
    summary: "Removes the agent's photo",
    tag: 'Profile',
    success: ok('Removed', profileAnswerSchema),
  },
  {
    method: 'POST',
    path: '/api/upload/logo',
    summary: "Sets the agent's logo (a data URL)",
    tag: 'Profile',
    body: json(logoUploadSchema),
    uploads: { imageData: LOGO_SIZE },
    success: ok('Saved', profileAnswerSchema),
  },
  {
    method: 'DELETE',
    path: '/api/upload/logo',
    summary: "Removes the agent's logo",
    tag: 'Profile',
    success: ok('Removed', profileAnswerSchema),
  },
  {
    method: 'GET',
    path: '/api/leads',
    summary: "A page of the agent's leads, filtered",
    tag: 'Leads',
    query: leadListQuerySchema,
    success: ok('The page', leadListResponseSchema),
  },
  {
    method: 'DELETE',
    path: '/api/leads',
    summary: "Deletes the agent's leads that pass the list's filters (all of them without one: Clear All)",
    tag: 'Leads',
    query: leadFilterSchema,
    success: ok('Deleted', clearLeadsResponseSchema),
  },
  {
    method: 'GET',
    path: '/api/leads/export.csv',
    summary: "The agent's leads as CSV, filtered, a page at a time",
    tag: 'Leads',
    query: leadExportQuerySchema,
    success: leadCsvPage,
  },
  {
    method: 'POST',
    path: '/api/leads/sync-fub',
    summary: 'Sends the chosen leads to Follow Up Boss now',
    tag: 'Follow Up Boss',
    body: json(leadSyncRequestSchema),
    success: ok('What each lead did', leadSyncAnswerSchema),
    errors: [409],
  },
  {
    method: 'GET',
    path: '/api/leads/:id/crm',
    summary: "A lead's Follow Up Boss sync history",
    tag: 'Follow Up Boss',
    params: leadCrmParams,
    success: ok('The sync'),
    errors: [404],
  },
  {
    method: 'GET',
    path: '/api/agents/me/integrations/fub',
    summary: "The agent's Follow Up Boss connection (the key masked)",
    tag: 'Follow Up Boss',
    success: ok('The connection', fubAnswerSchema),
  },
  {
    method: 'PATCH',
    path: '/api/agents/me/integrations/fub',
    summary: 'Connects or changes Follow Up Boss (the key is checked with Follow Up Boss)',
    tag: 'Follow Up Boss',
    body: json(fubSaveSchema),
    success: ok('Saved', fubChangeSchema),
    errors: [502],
  },
  {
    method: 'DELETE',
    path: '/api/agents/me/integrations/fub',
    summary: 'Disconnects Follow Up Boss',
    tag: 'Follow Up Boss',
    success: ok('Disconnected', fubChangeSchema),
  },
  // Admins.
  {
    method: 'GET',
    path: '/api/admin/overview',
    summary: "The site's figures: every agent's leads and estimates, a 12-week chart",
    tag: 'Admin',
    success: ok('The overview', adminOverviewResponseSchema),
  },
  {
    method: 'GET',
    path: '/api/admin/activity',
    summary: 'Recent activity across agents',
    tag: 'Admin',
    success: ok('The activity', adminActivityResponseSchema),
  },
  {
    method: 'GET',
    path: '/api/admin/leads',
    summary: "A page of every agent's leads, filtered",
    tag: 'Admin',
    query: adminLeadListQuerySchema,
    success: ok('The page', adminLeadListResponseSchema),
  },
  {
    method: 'GET',
    path: '/api/admin/leads/export.csv',
    summary: "Every agent's leads as CSV, filtered, a page at a time",
    tag: 'Admin',
    query: adminLeadExportQuerySchema,
    success: leadCsvPage,
  },
  {
    method: 'GET',
    path: '/api/admin/leads/:id/timeline',
    summary: "A lead's timeline: e-mails, CRM syncs",
    tag: 'Admin',
    params: leadIdSchema,
    success: ok('The timeline', leadTimelineResponseSchema),
    errors: [404],
  },
  {
    method: 'PATCH',
    path: '/api/agents/me/showcase',
    summary: "Saves the home page's showcase figures",
    tag: 'Showcase',
    body: json(showcaseFieldsSchema),
    success: ok('Saved'),
  },
  {
    method: 'GET',
    path: '/api/images/list',
    summary: 'The showcase images in order',
    tag: 'Showcase',
    success: ok('The images', imageListSchema),
  },
  {
    method: 'POST',
    path: '/api/images/upload',
    summary: 'Adds a showcase image (form part `image`)',
    tag: 'Showcase',
    body: { 'multipart/form-data': { files: ['image'] } },
    uploads: { image: SHOWCASE_IMAGE_SIZE },
    success: ok('Added', imageUploadedSchema),
    errors: [409],
  },
  {
    method: 'DELETE',
    path: '/api/images/delete',
    summary: 'Removes a showcase image',
    tag: 'Showcase',
    body: json(deleteImageSchema),
    success: ok('Removed', imagesChangedSchema),
    errors: [404],
  },
  {
    method: 'PUT',
    path: '/api/images/order',
    summary: 'Reorders the showcase images (every image, in the new order)',
    tag: 'Showcase',
    body: json(imageOrderSchema),
    success: ok('Reordered', imagesChangedSchema),
    errors: [409],
  },
];

/** The API's one error shape (errorResponse in http.ts). */
const errorSchema = z.object({
  success: z.literal(false),
  error: z.string().describe('What went wrong, for a person'),
  fields: z.record(z.string(), z.string()).describe('Per-field messages, by field name'),
});

const ERROR_MEANINGS: Readonly<Record<number, string>> = {
  400: 'The request is not valid (fields says which field and why)',
  401: 'Not signed in, or the session ended',
  403: 'Not allowed: an admin route, or a cross-site request carrying the session cookie',
  404: 'Not found',
  409: 'Conflicts with the current state',
  410: 'Gone',
  413: 'The request body is too large',
  415: 'The request body is not of a media type this route reads',
  422: 'Valid, but cannot be met',
  429: 'Too many requests: try again after Retry-After seconds',
  502: 'An outside service did not answer',
  503: 'The database cannot be reached just now, or every worker making images and PDFs is busy: try again after Retry-After seconds (decisions 0023, 0033)',
};

const uploadLimit = `${MAX_UPLOAD_BODY_BYTES / (1024 * 1024)} MB (${groupDigits(String(MAX_UPLOAD_BODY_BYTES))} bytes)`;

/**
 * What an upload's body may weigh and, for a media type that carries images, what is kept of each
 * (decision 0027): its body's description.
 */
function uploadDescription(uploads: Readonly<Record<string, StoredSize>>, carriesImages: boolean): string {
  const limit =
    `At most ${uploadLimit} in all, every field together (an image sent as base64 counts at its base64 ` +
    'length); a larger body answers 413.';
  if (!carriesImages) return limit;
  const kept = Object.entries(uploads).map(
    ([field, size]) =>
      `\`${field}\` is stored at most ${describeStoredSize(size)} pixels (${size.output.toUpperCase()})`,
  );
  return `${limit} ${kept.join('; ')}, scaled down, never up: send no more pixels than that.`;
}

/** The error statuses an operation can answer: from its access, inputs and body, and its own. */
/** An operation's request body by media type: its JSON body (`json`) and any other it declares. */
function bodyOf(operation: OperationDoc): Readonly<Record<string, RequestContent>> | undefined {
  if (!operation.json) return operation.body;
  return { 'application/json': { schemas: [operation.json] }, ...operation.body };
}

function errorStatuses(operation: OperationDoc, access: Access): number[] {
  const statuses = new Set(operation.errors);
  const body = bodyOf(operation);
  if (access !== 'public') statuses.add(401);
  // Admins only; and the CSRF check refuses a cross-site write that carries the session cookie.
  if (access === 'admin' || operation.method !== 'GET') statuses.add(403);
  if (operation.params || operation.query || body) statuses.add(400);
  if (body) statuses.add(413);
  if (body && operation.checksType !== false) statuses.add(415);
  if (operation.readsDatabase !== false) statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

/** `METHOD /api/path/:param`, as ROUTE_ACCESS and Hono's routes name an operation. */
export const operationKey = (operation: Pick<OperationDoc, 'method' | 'path'>) =>
  `${operation.method} ${operation.path}`;

type JsonSchema = Record<string, unknown>;

/** A request's schema as a client must send it (input), or an answer's as the server gives it (output). */
function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output'): JsonSchema {
  // Refinements and transforms have no JSON Schema: the document gives what they start from. The
  // dialect ($schema) is the document's own (OpenAPI 3.1 is JSON Schema 2020-12), not repeated.
  const converted = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });
  return Object.fromEntries(Object.entries(converted).filter(([key]) => key !== '$schema'));
}

/** OpenAPI parameters from a params or query object schema, one per property. */
function parameters(schema: z.core.$ZodType, where: 'path' | 'query'): JsonSchema[] {
  const object = jsonSchema(schema, 'input');
  const properties = z.record(z.string(), z.record(z.string(), z.unknown())).parse(object.properties ?? {});
  const required = new Set(z.array(z.string()).parse(object.required ?? []));
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
  }));
}

/** One media type of a request body: its schema (or `oneOf` several), file parts as binary strings. */
function requestContent({ schemas = [], files = [], description }: RequestContent): JsonSchema {
  const alternatives = schemas.map((schema) => jsonSchema(schema, 'input'));
  const fileProperties = Object.fromEntries(files.map((name) => [name, { type: 'string', format: 'binary' }]));
  let schema: JsonSchema;
  if (alternatives.length > 1) schema = { anyOf: alternatives };
  else if (alternatives[0]) schema = alternatives[0];
  else schema = files.length > 0 ? { type: 'object' } : { type: 'string', format: 'binary' };
  if (files.length > 0)
    schema = {
      ...schema,
      properties: { ...z.record(z.string(), z.unknown()).parse(schema.properties ?? {}), ...fileProperties },
    };
  // OpenAPI 3.1 has no `description` on a Media Type Object (validators refuse it): a media type's
  // words go on its schema, where JSON Schema allows one.
  if (!description) return { schema };
  const own = typeof schema.description === 'string' ? `${schema.description} ` : '';
  return { schema: { ...schema, description: `${own}${description}` } };
}

const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const operationId = (operation: OperationDoc) =>
  `${operation.method.toLowerCase()}${operation.path
    .slice('/api'.length)
    .replace(/[^A-Za-z0-9]+(\w)?/g, (_match, next: string | undefined) => (next ?? '').toUpperCase())}`;

const ACCESS_MEANINGS: Readonly<Record<Access, string>> = {
  public: 'Anyone',
  agent: 'A signed-in agent (admins too)',
  admin: 'A signed-in admin',
};

/**
 * Every operation of the API: those the groups declare, in the groups' order, and (until each group is
 * declared) the legacy list here, with its access from LEGACY_ACCESS (an operation missing there throws).
 */
export async function apiOperations(): Promise<OperationDoc[]> {
  const legacy = LEGACY_OPERATIONS.map((operation) => {
    const access = LEGACY_ACCESS[operationKey(operation)];
    if (!access) throw new Error(`${operationKey(operation)} is not in LEGACY_ACCESS`);
    return { ...operation, access };
  });
  const declared = await Promise.all(GROUP_NAMES.map(async (group) => (await API_GROUPS[group].operations?.()) ?? []));
  return [...legacy, ...declared.flat()];
}

/** The whole document, made from the operations as they are declared. */
export async function openApiDocument(operations?: readonly OperationDoc[]): Promise<JsonSchema> {
  const all = operations ?? (await apiOperations());
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const operation of all) {
    const { access } = operation;
    const body = bodyOf(operation);
    const { success } = operation;
    const responses: Record<string, JsonSchema> = {
      [success.status]: {
        description: success.description,
        ...(success.headers
          ? {
              headers: Object.fromEntries(
                Object.entries(success.headers).map(([name, description]) => [
                  name,
                  { description, schema: { type: 'string' } },
                ]),
              ),
            }
          : {}),
        ...(success.schema || success.media
          ? {
              content: {
                [success.media ?? 'application/json']: {
                  schema: success.schema ? jsonSchema(success.schema, 'output') : { type: 'string', format: 'binary' },
                },
              },
            }
          : {}),
      },
    };
    for (const status of errorStatuses(operation, access)) {
      responses[status] = {
        description:
          status === 413 && operation.uploads
            ? `The request body is larger than ${uploadLimit}, the most an upload may carry`
            : (ERROR_MEANINGS[status] ?? 'Error'),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    const pathItem = (paths[openApiPath(operation.path)] ??= {});
    pathItem[operation.method.toLowerCase()] = {
      operationId: operationId(operation),
      summary: operation.summary,
      tags: [operation.tag],
      'x-access': access,
      description: `Who may call it: ${ACCESS_MEANINGS[access]}.`,
      ...(access === 'public' ? { security: [] } : {}),
      parameters: [
        ...(operation.params ? parameters(operation.params, 'path') : []),
        ...(operation.query ? parameters(operation.query, 'query') : []),
      ],
      ...(body
        ? {
            requestBody: {
              required: true,
              content: Object.fromEntries(
                Object.entries(body).map(([media, content]) => [
                  media,
                  requestContent(
                    operation.uploads
                      ? {
                          ...content,
                          description: [
                            content.description,
                            uploadDescription(operation.uploads, media !== 'application/x-www-form-urlencoded'),
                          ]
                            .filter(Boolean)
                            .join(' '),
                        }
                      : content,
                  ),
                ]),
              ),
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Long Island net-to-seller calculator API',
      version: '1',
      description:
        'Every route of the API. Errors always answer `{ "success": false, "error", "fields" }`. ' +
        'Agent and admin routes need the session cookie that POST /api/auth/login sets; writes that carry ' +
        'it must come from the site itself (same Origin).',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(all.map((operation) => operation.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { Error: jsonSchema(errorSchema, 'output') },
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } },
    },
    security: [{ session: [] }],
  };
}
