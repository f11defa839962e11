import * as z from 'zod';
import { sessionAgentCte, sessionOf, sessionParams } from '../auth/public/access.server.ts';
import { PLEASE_LOG_IN, type SessionClaims } from '../auth/public/sessions.server.ts';
import type { Db } from '../../platform/db.ts';
import { CACHE_TAGS, type PurgeAfterWrite } from '../../platform/edge-cache.ts';
import { saveSiteLogoSettings } from '../site-images/public/site-images.server.ts';
import { siteLogosSavedSchema, siteLogoSettingsSchema } from '../site-images/public/site-images.ts';
import { HttpError, jsonObject, parseOrThrow, readJson } from '../../platform/http.ts';
import { apiGroup, json, ok } from '../../platform/operation.ts';
import {
  agentDefaultsSchema,
  agentSettingsResponseSchema,
  agentSettingsSavedSchema,
  calculatorSettingsSchema,
  SITE_WIDE_KEYS,
  type AgentDefaults,
  type CalculatorSettings,
} from '../net-sheet/public/agent-settings.ts';
import { SETTINGS_MESSAGES } from './settings-messages.ts';
import { SETTINGS_COLUMNS, toSettings, type SettingsRow } from '../net-sheet/public/agent-settings-row.server.ts';

/** Whole cents from dollars and hundredths from percents (the schemas allow no finer values). */
const cents = (dollars: number) => Math.round(dollars * 100);
const percentSum = (a: number, b: number) => (Math.round(a * 100) + Math.round(b * 100)) / 100;

/** The agent's calculator defaults and net-sheet settings (and, for admins, the site's logo fields). */
export const agentSettingsApi = apiGroup(
  (deps: { db: Db; purge: PurgeAfterWrite }) => deps,
  (op) => [
    /** One round trip: the session check and the agent's settings. */
    op({
      method: 'GET',
      path: '/api/agents/me/settings',
      access: 'agent',
      summary: "The agent's calculator defaults and net-sheet settings",
      tag: 'Dashboard',
      success: ok('The settings', agentSettingsResponseSchema),
      handler: async (c, { db }) => {
        const [row] = await db.query<SettingsRow>(
          `WITH ${sessionAgentCte(1)}
         SELECT ${SETTINGS_COLUMNS} FROM me LEFT JOIN agent_settings s ON s.agent_id = me.id`,
          sessionParams(sessionOf(c)),
        );
        if (!row) throw new HttpError(401, PLEASE_LOG_IN);
        return c.json({ success: true, settings: toSettings(row) });
      },
    }),
    op({
      method: 'PATCH',
      path: '/api/agents/me/settings',
      access: 'agent',
      summary: "Saves the agent's calculator defaults or net-sheet settings (the site's logo fields: admins only)",
      tag: 'Dashboard',
      body: json(calculatorSettingsSchema, agentDefaultsSchema, siteLogoSettingsSchema),
      success: ok('Saved', z.union([agentSettingsSavedSchema, siteLogosSavedSchema])),
      errors: [403],
      handler: async (c, { db, purge }) => {
        const claims = sessionOf(c);
        const body = await readJson(c, jsonObject);
        // Shapes 2 and 3 (the website and town-page logos) change what every visitor sees: admins only.
        if (SITE_WIDE_KEYS.some((key) => key in body)) return saveSiteLogoSettings(c, db, purge, body);
        // Shape 4 (the settings screen): the split names the listing side; shape 1 (four fields) does not.
        const row =
          'default_listing_percent' in body
            ? await saveDefaults(db, claims, parseOrThrow(agentDefaultsSchema, body))
            : await saveCalculator(db, claims, parseOrThrow(calculatorSettingsSchema, body));
        if (!row) throw new HttpError(401, PLEASE_LOG_IN);
        // The public agent answer carries the calculator's defaults.
        await purge(c.req.raw, [CACHE_TAGS.agent(claims.agentId)]);
        return c.json({ success: true, message: SETTINGS_MESSAGES.saved, settings: toSettings(row) });
      },
    }),
  ],
);

/**
 * Shape 1: the four quick-estimate fields, as before. A stored split that no longer adds up to the
 * new commission is cleared (NULL: the commission cut in half, see splitCommission); one that still
 * does is kept, so saving the same commission does not undo the agent's split.
 */
async function saveCalculator(db: Db, claims: SessionClaims, settings: CalculatorSettings) {
  const [row] = await db.query<SettingsRow>(
    `WITH ${sessionAgentCte(1)}
     INSERT INTO agent_settings AS s (agent_id, default_attorney_fee_cents, default_recording_fee_cents,
                                      transfer_tax_rate_per_1000, default_commission_percent)
     SELECT me.id, $3, $4, $5, $6 FROM me
     ON CONFLICT (agent_id) DO UPDATE SET
       default_attorney_fee_cents = EXCLUDED.default_attorney_fee_cents,
       default_recording_fee_cents = EXCLUDED.default_recording_fee_cents,
       transfer_tax_rate_per_1000 = EXCLUDED.transfer_tax_rate_per_1000,
       default_commission_percent = EXCLUDED.default_commission_percent,
       default_listing_percent = CASE WHEN s.default_listing_percent + s.default_buyer_agent_percent
                                           = EXCLUDED.default_commission_percent THEN s.default_listing_percent END,
       default_buyer_agent_percent = CASE WHEN s.default_listing_percent + s.default_buyer_agent_percent
                                           = EXCLUDED.default_commission_percent THEN s.default_buyer_agent_percent END,
       updated_at = now()
     RETURNING ${SETTINGS_COLUMNS}`,
    [
      ...sessionParams(claims),
      cents(settings.default_attorney_fee),
      cents(settings.default_recording_fee),
      settings.transfer_tax_rate_per_1000,
      settings.default_commission_percent,
    ],
  );
  return row;
}

/** Shape 4: every default, the commission stored as the sum of its two sides. One statement. */
async function saveDefaults(db: Db, claims: SessionClaims, settings: AgentDefaults) {
  const [row] = await db.query<SettingsRow>(
    `WITH ${sessionAgentCte(1)}
     INSERT INTO agent_settings AS s (agent_id, default_attorney_fee_cents, default_recording_fee_cents,
                                      transfer_tax_rate_per_1000, default_commission_percent,
                                      default_listing_percent, default_buyer_agent_percent, default_days_to_closing,
                                      default_title_closer_pickup, default_payoff_bank_attorney,
                                      default_rp5217_on_seller)
     SELECT me.id, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 FROM me
     ON CONFLICT (agent_id) DO UPDATE SET
       default_attorney_fee_cents = EXCLUDED.default_attorney_fee_cents,
       default_recording_fee_cents = EXCLUDED.default_recording_fee_cents,
       transfer_tax_rate_per_1000 = EXCLUDED.transfer_tax_rate_per_1000,
       default_commission_percent = EXCLUDED.default_commission_percent,
       default_listing_percent = EXCLUDED.default_listing_percent,
       default_buyer_agent_percent = EXCLUDED.default_buyer_agent_percent,
       default_days_to_closing = EXCLUDED.default_days_to_closing,
       default_title_closer_pickup = EXCLUDED.default_title_closer_pickup,
       default_payoff_bank_attorney = EXCLUDED.default_payoff_bank_attorney,
       default_rp5217_on_seller = EXCLUDED.default_rp5217_on_seller,
       updated_at = now()
     RETURNING ${SETTINGS_COLUMNS}`,
    [
      ...sessionParams(claims),
      cents(settings.default_attorney_fee),
      cents(settings.default_recording_fee),
      settings.transfer_tax_rate_per_1000,
      percentSum(settings.default_listing_percent, settings.default_buyer_agent_percent),
      settings.default_listing_percent,
      settings.default_buyer_agent_percent,
      settings.default_days_to_closing,
      settings.default_title_closer_pickup,
      settings.default_payoff_bank_attorney,
      settings.default_rp5217_on_seller,
    ],
  );
  return row;
}
