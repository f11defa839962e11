/** A static shell serves many URLs; once loaded it names the one it is showing as canonical. */
export function setCanonicalToCurrentUrl(): void {
  let link = document.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'canonical';
    document.head.append(link);
  }
  link.href = `${window.location.origin}${window.location.pathname}`;
}
