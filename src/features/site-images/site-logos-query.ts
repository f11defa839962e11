/**
 * The site's logo settings on /admin/settings: both logo cards read GET /api/global/settings (what
 * the public header reads too) under one query key, and save shapes 2 and 3 of PATCH
 * /api/agents/me/settings. Open public pages in this browser are told to show a change at once.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getJson, sendJson } from '../accounts/public/account-query.ts';
import type { Outcome } from '../accounts/public/use-settings-form.ts';
import { LOGO_UPDATED_KEY } from './public/logo.ts';
import { siteLogosAnswerSchema, siteLogosSavedSchema, type SiteLogoSettingsInput } from './public/site-images.ts';
import { failureOf } from './public/SiteImageUpload.tsx';

const QUERY_KEY = ['site-logos'];

export const useSiteLogos = () =>
  useQuery({
    queryKey: QUERY_KEY,
    queryFn: async () => (await getJson('/api/global/settings', siteLogosAnswerSchema)).settings,
  });

/** Marks the logo as changed for the public pages open in this browser (src/features/site/page-actions.ts). */
const announceLogoChange = () => localStorage.setItem(LOGO_UPDATED_KEY, String(Date.now()));

/** After an upload or delete: the cards refetch, the public pages refresh their header. */
export function useLogosChanged(): () => void {
  const queryClient = useQueryClient();
  return () => {
    announceLogoChange();
    void queryClient.invalidateQueries({ queryKey: QUERY_KEY });
  };
}

/** Saves a logo setting; the answer becomes the cards' data. */
export function useSaveLogoSettings(failed: string, onOutcome: (outcome: Outcome) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SiteLogoSettingsInput) =>
      sendJson('PATCH', '/api/agents/me/settings', siteLogosSavedSchema, body),
    onSuccess: (answer) => {
      queryClient.setQueryData(QUERY_KEY, answer.settings);
      announceLogoChange();
      onOutcome({ tone: 'success', message: answer.message });
    },
    onError: (error) => onOutcome({ tone: 'error', message: failureOf(error, failed) }),
  });
}
