import { Hono } from 'hono';
import { sessionAgentCte, sessionOf, sessionParams } from '../auth/access.server.ts';
import { PLEASE_LOG_IN } from '../auth/sessions.server.ts';
import { SYSTEM_DEFAULTS } from '../estimate/estimate.ts';
import type { Db } from '../../server/db.ts';
import { saveSiteLogoSettings } from '../site/site-images.server.ts';
import { HttpError, parseOrThrow, readJson, route } from '../../server/http.ts';
import { centsToDollars } from '../../ui/money.ts';
import { z } from 'zod';
import {
  calculatorSettingsSchema,
  SETTINGS_MESSAGES,
  SITE_WIDE_KEYS,
  type CalculatorSettings,
} from './agent-settings.ts';

interface SettingsRow {
  default_attorney_fee_cents: number | null;
  default_recording_fee_cents: number | null;
  transfer_tax_rate_per_1000: number | null;
  default_commission_percent: number | null;
}

const SETTINGS_COLUMNS =
  's.default_attorney_fee_cents, s.default_recording_fee_cents, s.transfer_tax_rate_per_1000, s.default_commission_percent';

/** The agent's values, the system defaults where they have none (as new estimates use them). */
const toSettings = (row: SettingsRow): CalculatorSettings => ({
  default_attorney_fee: centsToDollars(row.default_attorney_fee_cents ?? SYSTEM_DEFAULTS.attorneyFeeCents),
  default_recording_fee: centsToDollars(row.default_recording_fee_cents ?? SYSTEM_DEFAULTS.recordingFeeCents),
  transfer_tax_rate_per_1000: row.transfer_tax_rate_per_1000 ?? SYSTEM_DEFAULTS.transferTaxRatePer1000,
  default_commission_percent: row.default_commission_percent ?? SYSTEM_DEFAULTS.commissionPercent,
});

/** Any JSON object; the shape is decided by its keys before it is parsed. */
const anyObject = z.record(z.string(), z.unknown());

export function agentSettingsRoutes(db: Db): Hono {
  const app = new Hono();
  route(app, '/agents/me/settings', {
    /** One round trip: the session check and the agent's settings. */
    GET: async (c) => {
      const [row] = await db.query<SettingsRow>(
        `WITH ${sessionAgentCte(1)}
         SELECT ${SETTINGS_COLUMNS} FROM me LEFT JOIN agent_settings s ON s.agent_id = me.id`,
        sessionParams(sessionOf(c)),
      );
      if (!row) throw new HttpError(401, PLEASE_LOG_IN);
      return c.json({ success: true, settings: toSettings(row) });
    },
    PATCH: async (c) => {
      const claims = sessionOf(c);
      const body = await readJson(c, anyObject);
      // Shapes 2 and 3 (the website and town-page logos) change what every visitor sees: admins only.
      if (SITE_WIDE_KEYS.some((key) => key in body)) return saveSiteLogoSettings(c, db, body);
      const settings = parseOrThrow(calculatorSettingsSchema, body);
      // One statement: the session check and the upsert; no `me` row writes nothing.
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
           updated_at = now()
         RETURNING ${SETTINGS_COLUMNS}`,
        [
          ...sessionParams(claims),
          Math.round(settings.default_attorney_fee * 100),
          Math.round(settings.default_recording_fee * 100),
          settings.transfer_tax_rate_per_1000,
          settings.default_commission_percent,
        ],
      );
      if (!row) throw new HttpError(401, PLEASE_LOG_IN);
      return c.json({ success: true, message: SETTINGS_MESSAGES.saved, settings: toSettings(row) });
    },
  });
  return app;
}
