/**
 * /dashboard/embed's API (issue 26, decision 0058): GET and PUT /api/agents/me/embed, the sites
 * allowed to frame the signed-in agent's calculator. Each is one statement that checks the session
 * (sessionAgentCte). Saving purges the agent's pages at the edge: the frame's answer, whose
 * frame-ancestors comes from this list, is kept under the agent's tag.
 */
import { sessionAgentCte, sessionOf, sessionParams } from '../auth/public/access.server.ts';
import { PLEASE_LOG_IN } from '../auth/public/sessions.server.ts';
import type { Db } from '../../platform/db.ts';
import { CACHE_TAGS, type PurgeAfterWrite } from '../../platform/edge-cache.ts';
import { HttpError } from '../../platform/http.ts';
import { apiGroup, ok } from '../../platform/operation.ts';
import { EMBED_SETTINGS_PATH, embedOriginsSchema, embedSettingsSchema } from './public/embed-origins.ts';

const signedOut = () => new HttpError(401, PLEASE_LOG_IN);

interface EmbedRow {
  id: number;
  slug: string;
  origins: string[];
}

export const embedApi = apiGroup(
  (deps: { db: Db; purge: PurgeAfterWrite; production: boolean }) => deps,
  (op) => [
    op({
      method: 'GET',
      path: EMBED_SETTINGS_PATH,
      access: 'agent',
      summary: 'The sites allowed to embed the agent’s calculator',
      tag: 'Dashboard',
      success: ok('The list', embedSettingsSchema),
      handler: async (c, { db }) => {
        const [row] = await db.query<EmbedRow>(
          `WITH ${sessionAgentCte(1)}
           SELECT me.id, a.slug, coalesce(s.embed_origins, '{}') AS origins
             FROM me JOIN agents a ON a.id = me.id LEFT JOIN agent_settings s ON s.agent_id = me.id`,
          sessionParams(sessionOf(c)),
        );
        if (!row) throw signedOut();
        return c.json({ success: true, origins: row.origins, slug: row.slug });
      },
    }),
    op({
      method: 'PUT',
      path: EMBED_SETTINGS_PATH,
      access: 'agent',
      summary: 'Saves the sites allowed to embed the agent’s calculator (the whole list)',
      tag: 'Dashboard',
      json: embedOriginsSchema,
      success: ok('Saved', embedSettingsSchema),
      handler: async (c, { db, purge, production }, input) => {
        const { origins } = await input.body();
        // A production site is framed only over https: an http host page would be readable and
        // changeable by anyone on its network, the calculator's leads with it.
        if (production) {
          const plain = origins.findIndex((origin) => origin.startsWith('http:'));
          if (plain >= 0) {
            const message = 'The address must start with https://';
            throw new HttpError(400, message, { [`origins.${plain}`]: message });
          }
        }
        const claims = sessionOf(c);
        const [row] = await db.query<EmbedRow>(
          `WITH ${sessionAgentCte(1)},
           saved AS (
             INSERT INTO agent_settings AS s (agent_id, embed_origins) SELECT me.id, $3::text[] FROM me
             ON CONFLICT (agent_id) DO UPDATE SET embed_origins = EXCLUDED.embed_origins, updated_at = now()
             RETURNING s.agent_id, s.embed_origins
           )
           SELECT saved.agent_id AS id, a.slug, saved.embed_origins AS origins
             FROM saved JOIN agents a ON a.id = saved.agent_id`,
          [...sessionParams(claims), origins],
        );
        if (!row) throw signedOut();
        await purge(c.req.raw, [CACHE_TAGS.agent(row.id)]);
        const message =
          row.origins.length === 0
            ? 'Saved. No other site may show your calculator now.'
            : `Saved. ${row.origins.length === 1 ? 'This site' : `These ${row.origins.length} sites`} may show your calculator.`;
        return c.json({ success: true, origins: row.origins, slug: row.slug, message });
      },
    }),
  ],
);
