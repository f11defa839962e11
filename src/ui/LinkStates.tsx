/** The loading and missing states of a page that loads what its link names (/estimate/{uuid}, /offers/{uuid}). */

/** The id after the page's own path segment: /estimate/{uuid} → uuid ('' when there is none). */
export const idInPath = (): string => window.location.pathname.split('/').filter(Boolean)[1] ?? '';

export function LinkLoading({ className, title, message }: { className: string; title: string; message: string }) {
  return (
    <section className={className} aria-busy="true">
      <h1>{title}</h1>
      <p className="field-hint">{message}</p>
      <div className="skeleton-sheet" aria-hidden="true" />
    </section>
  );
}

/** Not found (a mistyped or removed link: the page also answered 404) or failed to load (try again). */
export function LinkMissing({
  kind,
  titles,
  messages,
}: {
  kind: 'not-found' | 'failed';
  titles: Record<'not-found' | 'failed', string>;
  messages: Record<'not-found' | 'failed', string>;
}) {
  return (
    <section className="estimate-missing">
      <h1>{titles[kind]}</h1>
      <p>{messages[kind]}</p>
      <a className="button button-primary" href="/">
        Run another estimate
      </a>
    </section>
  );
}
