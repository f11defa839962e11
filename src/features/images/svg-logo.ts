/**
 * What an SVG logo may hold before librsvg renders it (decision 0036): shapes,
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
  'style',
]);

export const SVG_LOGO_MESSAGE =
  'This SVG uses features a logo does not need (filters, scripts, embedded or linked files, repeated or very many shapes). Please save it as a plain SVG, or upload a PNG.';

/**
 * Bounds on how much drawing a logo can ask for. libvips stops a render between strips when the
 * worker's budget runs out, but each strip is one librsvg call that draws the whole document
 * (clipped) and cannot be interrupted, and its cost grows faster than the drawing's size: measured
 * here, one draw of a path of long stroked lines took 0.1 s at 43 KB, 2-3 s at 216 KB and 8 s at
 * 432 KB; a path drawn 10^4 times through four levels of ten `<use>`s, minutes. So the drawing is
 * bounded before: at most 128 KB, a `<use>` never inside an element with an id (one level of reuse),
 * and the text times the draws it can make (1 + the `<use>`s) at most 128 KB. Markers and patterns
 * repeat content too: not in a logo. A logo larger than this is uploaded as a PNG.
 */
export const SVG_LIMITS = { maxBytes: 128 * 1024, maxDrawnBytes: 128 * 1024, maxElements: 5000 } as const;

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
  if (bytes.byteLength > SVG_LIMITS.maxBytes) return `more than ${SVG_LIMITS.maxBytes / 1024} KB`;
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
  const drawing = tooMuchDrawing(text);
  if (drawing) return drawing;
  for (const version of [text, decoded, decoded.replace(/\/\*[\s\S]*?\*\//g, '')]) {
    const problem = forbiddenIn(version);
    if (problem) return problem;
  }
  return undefined;
}

/** Too many elements, too many `<use>`s, or a `<use>` inside an element that can be referenced. */
function tooMuchDrawing(text: string): string | undefined {
  const tags = /<(\/?)([A-Za-z_][\w.:-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;
  /** Open elements: whether each has an id (the root too: a <use> of it would draw it again). */
  const open: boolean[] = [];
  let elements = 0;
  let uses = 0;
  // Comments and CDATA hold no elements (and could hide a closing tag from this walk).
  const markup = text.replace(/<!--[\s\S]*?-->/g, '').replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
  for (const [, closing, name = '', attributes = '', selfClosing] of markup.matchAll(tags)) {
    if (closing) {
      open.pop();
      continue;
    }
    elements += 1;
    if (elements > SVG_LIMITS.maxElements) return `more than ${SVG_LIMITS.maxElements} elements`;
    if (/(^|:)use$/i.test(name)) {
      uses += 1;
      if (text.length * (1 + uses) > SVG_LIMITS.maxDrawnBytes) return 'too many <use> elements for its size';
      if (open.some((hasId) => hasId)) return 'a <use> inside an element that can be reused';
    }
    if (!selfClosing) open.push(/(^|\s)id\s*=/.test(attributes));
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
