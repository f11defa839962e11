/**
 * The signed-in agent's Follow Up Boss integration as one cached query, shared by the integrations
 * card, the leads screen (whether to show the sync controls) and the overview (needs attention).
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from '../accounts/account-query.ts';
import { fubIntegrationSchema } from './fub-integration.ts';

export const FUB_PATH = '/api/agents/me/integrations/fub';
export const FUB_QUERY_KEY = ['fub-integration'];

export const fubAnswerSchema = z.object({ success: z.literal(true), integration: fubIntegrationSchema });
/** What a save or a disconnect answers: the card as it now is, and what to say. */
export const fubChangeSchema = fubAnswerSchema.extend({ message: z.string() });

/** `enabled` false: not asked (a screen that shows it only for some scopes). */
export const useFubIntegration = (enabled = true) =>
  useQuery({
    queryKey: FUB_QUERY_KEY,
    queryFn: async () => (await getJson(FUB_PATH, fubAnswerSchema)).integration,
    enabled,
  });
