/**
 * Leads from the embedded calculator (issue 26, decision 0058), on both backends: the source
 * `embed` and the host page its frame sends, kept only when the page's site is on the agent's list
 * (a lead is never refused for it), shown in the leads list and its CSV as "Embed: {page}".
 */
import { describe, expect, it } from 'vitest';
import { leadSourceLabel } from '../../src/features/lead-origin/public/lead-page.ts';
import { BACKENDS } from '../support/backends.ts';
import { useApiSuite } from '../support/api-suite.ts';
import { createAgent } from '../support/fixtures.ts';
import { leadForms } from '../support/lead-forms.ts';

describe.each(BACKENDS)('leads from the embedded calculator on %s', (backend) => {
  const suite = useApiSuite(backend, 'embed-leads');
  const { sendOk, agentPageForm } = leadForms(suite);

  const agentAllowing = async (origins: string[]) => {
    const agent = await createAgent(suite.db);
    await suite.db.query(`INSERT INTO agent_settings (agent_id, embed_origins) VALUES ($1, $2::text[])`, [
      agent.id,
      origins,
    ]);
    return agent;
  };
  const hostPageOf = async (leadId: number) =>
    (await suite.db.query<{ host_page: string | null }>('SELECT host_page FROM leads WHERE id = $1', [leadId]))[0]
      ?.host_page;

  it("keeps the host page of a site on the agent's list, without its query or fragment", async () => {
    const agent = await agentAllowing(['https://www.agent-site.com']);
    const row = await sendOk(
      agentPageForm(agent.id, {
        source: 'embed',
        page: `/embed/${agent.slug}`,
        host_page: 'https://www.agent-site.com/sell/net-sheet?email=seller@example.com#top',
      }),
    );
    expect(row).toMatchObject({ agent_id: agent.id, source: 'embed', page_path: `/embed/${agent.slug}` });
    expect(await hostPageOf(row.id)).toBe('https://www.agent-site.com/sell/net-sheet');
  });

  it.each([
    ['a site not on the list', 'https://elsewhere.example.com/page'],
    ['the listed host over http', 'http://www.agent-site.com/page'],
    ['a listed host on another port', 'https://www.agent-site.com:8443/page'],
    ['an address that is no web page', 'javascript:alert(1)'],
  ])('records the lead without the host page for %s', async (_label, hostPage) => {
    const agent = await agentAllowing(['https://www.agent-site.com']);
    const row = await sendOk(agentPageForm(agent.id, { source: 'embed', host_page: hostPage }));
    expect(row).toMatchObject({ agent_id: agent.id, source: 'embed' });
    expect(await hostPageOf(row.id)).toBeNull();
  });

  it('keeps no host page for an agent who lists no site', async () => {
    const agent = await createAgent(suite.db);
    const row = await sendOk(agentPageForm(agent.id, { source: 'embed', host_page: 'https://www.agent-site.com/' }));
    expect(await hostPageOf(row.id)).toBeNull();
  });

  it('names the source in words as the lists and the CSV show it', () => {
    expect(leadSourceLabel('embed', '/embed/alex', 'https://www.agent-site.com/sell')).toBe(
      'Embed: https://www.agent-site.com/sell',
    );
    expect(leadSourceLabel('embed', '/embed/alex', null)).toBe('Embed');
    expect(leadSourceLabel('calculator', '/r/alex', 'https://ignored.example.com/')).toBe('Calculator page /r/alex');
  });
});
