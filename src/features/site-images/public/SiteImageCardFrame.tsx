import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Notice } from '../../../ui/Notice.tsx';
import { SITE_IMAGE_MESSAGES } from './site-images.ts';

/** A site-image card (OG image, website logo, town logo) with its load states: loading, failed with Retry, loaded. */
export function SiteImageCardFrame<T>({
  id,
  title,
  intro,
  query,
  children,
}: {
  id: string;
  title: string;
  intro: ReactNode;
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
}) {
  return (
    <section className="card admin-settings-card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p>{intro}</p>
      {query.isPending ? <p aria-live="polite">Loading…</p> : null}
      {query.isError ? (
        <>
          <Notice tone="error" message={SITE_IMAGE_MESSAGES.loadFailed} />
          <button type="button" className="button button-primary" onClick={() => void query.refetch()}>
            Retry
          </button>
        </>
      ) : null}
      {query.isSuccess ? children(query.data) : null}
    </section>
  );
}
