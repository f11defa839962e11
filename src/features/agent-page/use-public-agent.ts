import { useEffect, useState } from 'react';
import { callApi } from '../../ui/api-client.ts';
import { publicAgentSchema, type PublicAgentResponse } from '../accounts/public/public-agent.ts';
import { setCanonicalToCurrentUrl } from '../../ui/canonical.ts';

export type Loaded =
  | { kind: 'loading' }
  | { kind: 'missing' }
  | { kind: 'unavailable' }
  | { kind: 'failed' }
  | { kind: 'ready'; data: PublicAgentResponse };

/**
 * The agent of /r/{slug}: `given` when the page was rendered with it, else loaded from the slug in
 * the URL (GET /api/agents/public/{slug}), with why there is none when there is none.
 */
export function usePublicAgent(given: PublicAgentResponse | undefined): Loaded {
  const [loaded, setLoaded] = useState<Loaded>(given ? { kind: 'ready', data: given } : { kind: 'loading' });

  useEffect(() => {
    setCanonicalToCurrentUrl();
    if (given) return;
    const slug = window.location.pathname.split('/').filter(Boolean)[1] ?? '';
    callApi(`/api/agents/public/${encodeURIComponent(slug)}`, publicAgentSchema)
      .then((result) => {
        if (result.ok) setLoaded({ kind: 'ready', data: result.data });
        else if (result.status === 410) setLoaded({ kind: 'unavailable' });
        else setLoaded(result.status === 404 || result.status === 400 ? { kind: 'missing' } : { kind: 'failed' });
      })
      .catch((error: unknown) => {
        console.warn('Could not load the agent', error);
        setLoaded({ kind: 'failed' });
      });
  }, [given]);

  return loaded;
}
