import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getJson } from '../accounts/public/account-query.ts';
import { UPDATES_PATH, updatesResponseSchema } from './public/updates-screen.ts';

export const UPDATES_QUERY_KEY = ['seller-updates'] as const;

/** The agent's switch and a page of their subscribers (GET /api/dashboard/updates). */
export const useUpdates = (page: number) =>
  useQuery({
    queryKey: [...UPDATES_QUERY_KEY, page],
    queryFn: () => getJson(`${UPDATES_PATH}${page > 1 ? `?page=${page}` : ''}`, updatesResponseSchema),
    placeholderData: keepPreviousData,
  });
