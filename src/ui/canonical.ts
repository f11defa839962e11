/**
 * A static shell serves many URLs; once loaded it names the one it is showing as canonical (the
 * server already does for an agent's page; Astro's dev server does not). A page that must not be
 * indexed (a private estimate, a not-found answer) names no URL: its link is not for search engines.
 */
export function setCanonicalToCurrentUrl(): void {
  if (document.querySelector('meta[name="robots"][content*="noindex"]')) return;
  let link = document.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'canonical';
    document.head.append(link);
  }
  link.href = `${window.location.origin}${window.location.pathname}`;
}
