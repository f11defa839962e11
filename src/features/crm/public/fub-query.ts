/**
 * The signed-in agent's Follow Up Boss integration as one cached query, shared by the integrations
 * card, the leads screen (whether to show the sync controls) and the overview (needs attention).
 */
import { useQuery } from '@tanstack/react-query';
import { getJson } from '../../accounts/public/account-query.ts';
// The answers' schemas live in fub-integration.ts: the server's OpenAPI document reads them, and
// importing this module there would load React Query into the API function (decision 0026).
import { fubAnswerSchema } from './fub-integration.ts';

export const FUB_PATH = '/api/agents/me/integrations/fub';
export const FUB_QUERY_KEY = ['fub-integration'];

/** `enabled` false: not asked (a screen that shows it only for some scopes). */
export const useFubIntegration = (enabled = true) =>
  useQuery({
    queryKey: FUB_QUERY_KEY,
    queryFn: async () => (await getJson(FUB_PATH, fubAnswerSchema)).integration,
    enabled,
  });
