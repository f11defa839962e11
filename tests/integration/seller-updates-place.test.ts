/**
 * Where the home of a seller who ticks the updates box is (issue 25), over real HTTP on both
 * backends: the town or ZIP code typed under the box (updates_place) is the first source of the
 * subscription's town, and only the matched town is kept; a typed place naming no town, or no place
 * told by anything, is refused on its field with no lead written; without the box it is ignored.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.ts';
import { useEmailSuite } from '../support/email-suite.ts';
import { createAgent } from '../support/fixtures.ts';
import { leadForms } from '../support/lead-forms.ts';
import { NASSAU, netSheetCalls } from '../support/net-sheet-api.ts';
import { confirmationsTo, sendLead, subscriptionsOf } from '../support/seller-opt-in.ts';
import { PLACE_MISSING, PLACE_UNKNOWN } from '../../src/features/seller-updates/public/seller-place.ts';

describe.each(BACKENDS)('the place of a seller who opts in to updates on %s', (backend) => {
  const suite = useEmailSuite(backend, 'seller-place');
  const { send, sendRejected, newEstimate, uniqueEmail, agentPageForm, contactForm, estimatePageForm } =
    leadForms(suite);
  const { detailed } = netSheetCalls(suite);
  const subscriptionCount = async () =>
    (await suite.db.query<{ n: number }>('SELECT count(*)::int AS n FROM seller_updates'))[0]?.n ?? 0;

  /** An /r/{slug} unlock about a quick estimate (price and mortgage only), with no address: nothing else tells a town. */
  async function quickUnlock(change: Record<string, unknown>) {
    const agent = await createAgent(suite.db);
    const estimate = await newEstimate(agent.slug);
    const email = uniqueEmail('place');
    return {
      email,
      form: agentPageForm(agent.id, { email, address: null, estimate_uuid: estimate.uuid, ...change }),
    };
  }

  it("stores the typed town's slug and county, by name or ZIP code, never the typed text", async () => {
    for (const typed of ['Massapequa', '11758', '  massapequa, ny ']) {
      const { email, form } = await quickUnlock({ updates_opt_in: true, updates_place: typed });
      expect((await sendLead(suite, form)).updates).toBe('confirmation_sent');
      const [subscription, ...more] = await subscriptionsOf(suite.db, email);
      expect(more).toEqual([]);
      expect(subscription, typed).toMatchObject({ town_slug: 'massapequa', county: 'Nassau', state: 'pending' });
    }
  });

  it("takes the typed place over the address's ZIP code and the town page", async () => {
    const agent = await createAgent(suite.db);
    const estimate = await newEstimate(agent.slug);
    const form = contactForm({
      agent_slug: agent.slug,
      estimate_uuid: estimate.uuid,
      updates_opt_in: true,
      updates_place: 'Bay Shore',
      // Garden City's ZIP in the address, Massapequa's page: both lose to what the seller typed.
      page: '/long-island-real-estate/massapequa',
    });
    expect((await sendLead(suite, form)).updates).toBe('confirmation_sent');
    const [subscription] = await subscriptionsOf(suite.db, form.email);
    expect(subscription).toMatchObject({ town_slug: 'bay-shore', county: 'Suffolk' });
  });

  it('refuses a typed place that names no town, on its field, and writes no lead, subscription or e-mail', async () => {
    for (const typed of ['Atlantis', '90210', 'Massapequa Beach']) {
      const { email, form } = await quickUnlock({ updates_opt_in: true, updates_place: typed });
      // Even with an address whose ZIP code is a town's: the seller's own word is not overruled by a guess.
      const withAddress = { ...form, address: '7 Bay Road, Huntington, NY 11743' };
      const before = await subscriptionCount();
      await sendRejected(withAddress, 'updates_place', PLACE_UNKNOWN);
      expect(await subscriptionCount()).toBe(before);
      expect(await confirmationsTo(suite.db, email)).toEqual([]);
    }
  });

  it('refuses an opt-in with no place typed when nothing else tells a town or county, and writes nothing', async () => {
    for (const place of [undefined, null, '', '   ']) {
      const { email, form } = await quickUnlock({ updates_opt_in: true, updates_place: place });
      const before = await subscriptionCount();
      await sendRejected(form, 'updates_place', PLACE_MISSING);
      expect(await subscriptionCount()).toBe(before);
      expect(await confirmationsTo(suite.db, email)).toEqual([]);
    }
    // The estimate page's form has no address: its quick estimate alone tells nothing either.
    const estimate = await newEstimate();
    await sendRejected(estimatePageForm(estimate.uuid, { updates_opt_in: true }), 'updates_place', PLACE_MISSING);
  });

  it("without a typed place, still reads the estimate's details, the town page and the address", async () => {
    const agent = await createAgent(suite.db);
    const body = { ...NASSAU, agent_slug: agent.slug };
    const town = await detailed({ ...body, details: { ...NASSAU.details, town: 'massapequa' } });
    const page = estimatePageForm(town.estimate.uuid, { updates_opt_in: true });
    expect((await sendLead(suite, page)).updates).toBe('confirmation_sent');
    // A detailed estimate with its county and no town.
    const county = await detailed(body);
    const countyOnly = estimatePageForm(county.estimate.uuid, { updates_opt_in: true });
    expect((await sendLead(suite, countyOnly)).updates).toBe('confirmation_sent');
    const { email: paged, form } = await quickUnlock({ updates_opt_in: true, page: '/long-island-real-estate/islip' });
    expect((await sendLead(suite, form)).updates).toBe('confirmation_sent');

    expect(await subscriptionsOf(suite.db, page.email)).toMatchObject([{ town_slug: 'massapequa', county: 'Nassau' }]);
    expect(await subscriptionsOf(suite.db, countyOnly.email)).toMatchObject([{ town_slug: null, county: 'Nassau' }]);
    expect(await subscriptionsOf(suite.db, paged)).toMatchObject([{ town_slug: 'islip', county: 'Suffolk' }]);
  });

  it('ignores the place without the box: any text, no subscription, no refusal', async () => {
    const { email, form } = await quickUnlock({ updates_opt_in: false, updates_place: 'Atlantis' });
    expect((await sendLead(suite, form)).updates).toBe('none');
    expect(await subscriptionsOf(suite.db, email)).toEqual([]);
    const { form: absent } = await quickUnlock({ updates_place: 'Atlantis' });
    expect((await sendLead(suite, absent)).updates).toBe('none');
  });

  it('refuses a place over 100 characters or not text, on its field', async () => {
    const { form } = await quickUnlock({ updates_opt_in: true, updates_place: `Massapequa ${'x'.repeat(90)}` });
    await sendRejected(form, 'updates_place', 'Town or ZIP code must be at most 100 characters');
    const { form: number } = await quickUnlock({ updates_opt_in: true, updates_place: 11758 });
    await sendRejected(number, 'updates_place', 'Town or ZIP code must be text');
    // The request is answered as a whole: the same form fixed is accepted.
    expect((await send({ ...form, updates_place: '11758' })).status).toBe(201);
  });
});
