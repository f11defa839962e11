/**
 * The built site shows the database's content: a real `astro build` against an embedded database
 * whose site_content was edited (no towns, so the build is small), then its HTML read. The claims
 * and their source line on the home page, the track record and its source line (home and about
 * pages), the testimonial, the footer's
 * disclaimer and a county's figures must be the edited ones, not the seeded ones.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/platform/database.ts';
import { parseEnv } from '../../src/platform/env.ts';
import { featuredAgentFrom } from '../../src/platform/featured-agent.ts';
import { migrate } from '../../src/platform/migrate.ts';

/** Runs `astro build` into `outDir` with `env`; resolves with its output, rejects on failure. */
const astroBuild = (outDir: string, env: Record<string, string>) =>
  new Promise<string>((resolve, reject) => {
    const child = spawn('node_modules/.bin/astro', ['build', '--outDir', outDir], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`astro build failed:\n${output}`))));
  });

/** The text of a page without tags, entities decoded as the page shows them. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('the built pages', () => {
  let dir: string;
  let dist: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-content-build-'));
    dist = join(dir, 'dist');
    const db = await openDatabase(parseEnv({ DATA_DIR: dir }));
    try {
      await migrate(db);
      await db.query(
        `UPDATE site_content SET
           claims = $1::jsonb, track_record = $2::jsonb, testimonial_quote = $3, testimonial_author = $4,
           disclaimer = $5, county_stats = jsonb_set(county_stats, '{nassau,0}', $6::jsonb),
           track_record_source = $7`,
        [
          JSON.stringify([
            {
              figure: '3.5%',
              label: 'above list price',
              detail: 'On our 2025 sales',
              source: 'Source: MLS data, Apr 2025',
            },
            { figure: '12 days', label: 'to contract', detail: '', source: '' },
          ]),
          JSON.stringify([{ figure: '212', label: 'homes sold since 2019' }]),
          'They made selling easy.',
          'A Massapequa seller',
          'Figures from our own closed sales in 2025.',
          JSON.stringify({ label: 'Population', value: '1.39M' }),
          'Source: our closed sales since 2019 (MLS)',
        ],
      );
    } finally {
      await db.close();
    }
    await astroBuild(dist, { DATA_DIR: dir });
  }, 300_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('the home page shows the saved claims with their source line, track record, testimonial and disclaimer', async () => {
    const html = await readFile(join(dist, 'index.html'), 'utf8');
    const text = textOf(html);
    expect(text).toContain('3.5% above list price On our 2025 sales Source: MLS data, Apr 2025');
    expect(html).toMatch(/<p class="stat-source"[^>]*>Source: MLS data, Apr 2025<\/p>/);
    // A claim with no source shows no source line; the track record's source is under it.
    expect(html.match(/class="stat-source/g)).toHaveLength(2);
    expect(text).toContain('212 homes sold since 2019 Source: our closed sales since 2019 (MLS)');
    expect(text).toContain('“They made selling easy.” — A Massapequa seller');
    expect(text).toContain('Figures from our own closed sales in 2025.');
    expect(text).not.toContain('1,381+');
    expect(text).not.toContain('higher sale price');
    expect(text).not.toContain('Marketing performance data analysed April 2025');
  });

  it('the about page shows the track record with its source line (minor 34 follow-up)', async () => {
    const slug = featuredAgentFrom(parseEnv({ DATA_DIR: dir })).slug;
    const text = textOf(await readFile(join(dist, `about-${slug}/index.html`), 'utf8'));
    expect(text).toContain('212 homes sold since 2019 Source: our closed sales since 2019 (MLS)');
  });

  it('a county page shows the saved figures and keeps the others', async () => {
    const text = textOf(await readFile(join(dist, 'long-island-real-estate/nassau-county/index.html'), 'utf8'));
    expect(text).toContain('Population 1.39M');
    expect(text).toContain('Median Home Value $650K');
  });
});
