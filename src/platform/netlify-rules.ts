/**
 * Netlify's `_redirects` and `_headers` files, parsed so the local server routes exactly as
 * production does from the one place the rules are written (public/).
 * Formats: https://docs.netlify.com/routing/redirects/ and https://docs.netlify.com/routing/headers/
 */

export interface RedirectRule {
  from: string;
  to: string;
  status: number;
  /** `200!`: applies even when a file exists at the path. */
  force: boolean;
}

export interface HeaderRule {
  pattern: string;
  headers: [name: string, value: string][];
}

export function parseRedirects(text: string): RedirectRule[] {
  const rules: RedirectRule[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) continue;
    const [from, to, code = '301'] = line.split(/\s+/);
    if (!from || !to) throw new Error(`_redirects: cannot read the line "${raw}"`);
    const status = Number.parseInt(code, 10);
    if (!Number.isInteger(status)) throw new Error(`_redirects: bad status in "${raw}"`);
    rules.push({ from, to, status, force: code.endsWith('!') });
  }
  return rules;
}

export function parseHeaders(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const raw of text.split('\n')) {
    if (!raw.trim() || raw.trim().startsWith('#')) continue;
    if (!/^\s/.test(raw)) {
      rules.push({ pattern: raw.trim(), headers: [] });
      continue;
    }
    const current = rules.at(-1);
    const match = /^\s+([^:]+):\s*(.*)$/.exec(raw);
    if (!current || !match?.[1] || match[2] === undefined) throw new Error(`_headers: cannot read the line "${raw}"`);
    current.headers.push([match[1].trim(), match[2].trim()]);
  }
  return rules;
}

/** Matches `pattern` (with `*` splat and `:name` placeholders) against a path; returns captures. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  return pathMatcher(pattern)(path);
}

/** matchPath with `pattern` compiled once, for a matcher used on every request. */
export function pathMatcher(pattern: string): (path: string) => Record<string, string> | undefined {
  const names: string[] = [];
  const source = pattern
    .split('/')
    .map((segment) => {
      if (segment === '*') {
        names.push('splat');
        return '(.*)';
      }
      if (segment.startsWith(':')) {
        names.push(segment.slice(1));
        return '([^/]+)';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  const regex = new RegExp(`^${source}/?$`);
  return (path) => {
    const match = regex.exec(path);
    if (!match) return undefined;
    return Object.fromEntries(names.map((name, index) => [name, match[index + 1] ?? '']));
  };
}

export function applyCaptures(target: string, captures: Record<string, string>): string {
  return target.replace(/:(\w+)/g, (whole, name: string) => captures[name] ?? whole);
}

/**
 * The headers of every rule matching `path`, merged as Netlify's own emulation (netlify dev) merges
 * them: a header that a later matching rule sets again replaces the earlier one (so `/estimate/*`
 * can give those pages another Referrer-Policy than `/*`).
 */
export function headersFor(rules: HeaderRule[], path: string): [string, string][] {
  const matching = rules.filter((rule) => matchPath(rule.pattern, path));
  const setLater = (index: number, name: string) =>
    matching
      .slice(index + 1)
      .some((rule) => rule.headers.some(([other]) => other.toLowerCase() === name.toLowerCase()));
  return matching.flatMap((rule, index) => rule.headers.filter(([name]) => !setLater(index, name)));
}
