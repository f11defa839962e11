/**
 * What an SVG logo may hold before librsvg renders it (decision 0033-image-and-pdf-workers): shapes,
 * text, gradients, clipping and local references, nothing else. Filters (feTurbulence,
 * feGaussianBlur, feMorphology…) make rendering cost without bound (security audit of 2026-11-26,
 * finding 3); scripts, foreignObject, embedded or linked images and external references have no
 * place in a rasterised logo. Such an SVG is refused, not cleaned: a scan that only has to find a
 * forbidden name cannot be fooled into leaving one half-removed, as a rewrite of the markup could.
 * The scan reads text (no parser): it refuses whatever it is not sure of (another encoding, a
 * DOCTYPE that could define entities, CSS escapes).
 */

/** Elements a logo is drawn with (compared lower-case). Anything else is refused. */
const LOGO_ELEMENTS = new Set([
  'svg',
  'g',
  'defs',
  'symbol',
  'use',
  'title',
  'desc',
  'metadata',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'textpath',
  'lineargradient',
  'radialgradient',
  'stop',
  'clippath',
  'mask',
  'pattern',
  'marker',
  'style',
]);

export const SVG_LOGO_MESSAGE =
  'This SVG uses features a logo does not need (filters, scripts, embedded or linked files). Please save it as a plain SVG, or upload a PNG.';

/** An XML name: an optional prefix, then the local name. */
const START_TAG = /<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/g;
/** Any attribute naming a resource: href, xlink:href, src (its value must be a #fragment). */
const REFERENCE = /(?:^|[\s"'])(?:[\w.-]+:)?(?:href|src)\s*=\s*(["'])([\s\S]*?)\1/gi;
/** CSS and presentation-attribute references: url(…) must be a #fragment too. */
const URL_REFERENCE = /url\s*\(\s*(["']?)([\s\S]*?)\1\s*\)/gi;

/**
 * Why `bytes` (an SVG) may not be rendered as a logo, or undefined when it may. Only the text is
 * read; nothing is fetched or parsed.
 */
export function svgLogoProblem(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'not UTF-8';
  }
  // UTF-16 without a byte-order mark is valid UTF-8 full of NULs; the scan would not see its tags.
  if (text.includes('\u0000')) return 'NUL characters';
  const declaration = /^\uFEFF?\s*<\?xml\b[^>]*\bencoding\s*=\s*["']([^"']*)["']/i.exec(text);
  if (declaration && !/^(utf-8|us-ascii)$/i.test(declaration[1] ?? '')) return 'an encoding other than UTF-8';
  // Entities could spell markup the scan never sees; a stylesheet instruction links a file.
  if (/<!(DOCTYPE|ENTITY)/i.test(text)) return 'a DOCTYPE';
  if (/<\?(?!xml\s)/i.test(text.replace(/^\uFEFF?\s*<\?xml\s[^>]*\?>/i, ''))) return 'a processing instruction';
  // Character references could spell a name or a URL the scan would not see: it reads them decoded
  // too, and CSS with its comments removed (`fil/**/ter` is no filter, `filter/**/:` is one).
  const decoded = text.replace(/&#(x[0-9a-f]+|[0-9]+);?/gi, (_match, code: string) => {
    const point = code.startsWith('x') || code.startsWith('X') ? parseInt(code.slice(1), 16) : Number(code);
    return point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : '';
  });
  for (const version of [text, decoded, decoded.replace(/\/\*[\s\S]*?\*\//g, '')]) {
    const problem = forbiddenIn(version);
    if (problem) return problem;
  }
  return undefined;
}

function forbiddenIn(text: string): string | undefined {
  // Inkscape also binds the SVG namespace to `svg:`: elements under such a prefix are SVG's, checked too.
  const svgPrefixes = new Set<string>();
  for (const [, prefix = '', , value = ''] of text.matchAll(/xmlns:([\w.-]+)\s*=\s*(["'])([\s\S]*?)\2/gi)) {
    if (/2000\/svg/i.test(value)) svgPrefixes.add(`${prefix}:`);
  }
  for (const [, prefix, name = ''] of text.matchAll(START_TAG)) {
    // Elements of other namespaces (Inkscape's own, RDF metadata) are not drawn.
    const drawn = prefix === undefined || svgPrefixes.has(prefix);
    if (drawn && !LOGO_ELEMENTS.has(name.toLowerCase())) return `the <${name}> element`;
  }
  if (/\bfilter\s*[:=]/i.test(text)) return 'a filter';
  // CSS escapes (`u\72l(`) spell what the scan looks for; a logo's CSS needs none.
  if (text.includes('\\')) return 'a CSS escape';
  for (const [, , target = ''] of text.matchAll(REFERENCE)) {
    if (!target.trim().startsWith('#')) return 'an external reference';
  }
  for (const [, , target = ''] of text.matchAll(URL_REFERENCE)) {
    if (!target.trim().startsWith('#')) return 'an external reference';
  }
  if (/@import/i.test(text)) return 'an external reference';
  return undefined;
}
