/**
 * Opting in to monthly updates with a lead (issue 25), over real HTTP on both backends: the ticked
 * box makes one pending subscription and queues one confirmation e-mail with a working signed link,
 * in the lead's own statement; no box, nothing; the per-address cap; a repeat reuses the subscription;
 * a suppressed address gets none and is not told one was sent.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.ts';
import { expectJson } from '../support/api-suite.ts';
import { useEmailSuite } from '../support/email-suite.ts';
import { createAgent } from '../support/fixtures.ts';
import { leadForms } from '../support/lead-forms.ts';
import {
  confirm,
  confirmationsTo,
  confirmTokenIn,
  sendLead,
  signalsOf,
  subscriptionsOf,
} from '../support/seller-opt-in.ts';
import { CONFIRMATIONS_PER_RECIPIENT } from '../../src/features/seller-updates/public/opt-in.server.ts';
import { confirmResultSchema } from '../../src/features/seller-updates/confirm.ts';

describe.each(BACKENDS)('opting in to seller updates on %s', (backend) => {
  const suite = useEmailSuite(backend, 'seller-opt-in');
  const { newEstimate, uniqueEmail, agentPageForm, contactForm, estimatePageForm } = leadForms(suite);

  it('makes one pending subscription and queues one confirmation whose link confirms it', async () => {
    const agent = await createAgent(suite.db);
    const estimate = await newEstimate(agent.slug);
    const email = uniqueEmail('Opt.In');
    const { updates, leadId } = await sendLead(
      suite,
      agentPageForm(agent.id, { email, estimate_uuid: estimate.uuid, updates_opt_in: true }),
    );
    expect(updates).toBe('confirmation_sent');

    const [subscription, ...more] = await subscriptionsOf(suite.db, email);
    expect(more).toEqual([]);
    expect(subscription).toMatchObject({
      lead_id: leadId,
      agent_id: agent.id,
      email: email.toLowerCase(),
      estimate_uuid: estimate.uuid,
      // No town in a quick estimate, no town page: the ZIP of the address (Huntington, NY 11743).
      town_slug: 'huntington',
      county: 'Suffolk',
      state: 'pending',
      confirmed_at: null,
      due_in_days: null,
      last_price_cents: String(Math.round(estimate.sale_price * 100)),
      last_net_cents: String(Math.round(estimate.net_to_seller * 100)),
    });
    if (!subscription) throw new Error('no subscription');

    // To the visitor's address only, without the name they typed; delivered through the queue.
    const [confirmation, ...others] = await confirmationsTo(suite.db, email);
    expect(others).toEqual([]);
    expect(confirmation).toMatchObject({ to_email: email.toLowerCase(), to_name: null, lead_id: leadId });
    await suite.settle();
    const delivered = suite.outbox.find((message) => message.includes('/updates/confirm?token='));
    if (!delivered) throw new Error(`no confirmation delivered:\n${suite.outbox.join('\n---\n')}`);
    expect(delivered).toContain(`to ${email.toLowerCase()}`);
    const token = confirmTokenIn(delivered, subscription.id);

    const answer = await expectJson(await confirm(suite, token), 200, confirmResultSchema);
    expect(answer).toEqual({ success: true, status: 'confirmed' });
    const [confirmed] = await subscriptionsOf(suite.db, email);
    expect(confirmed?.state).toBe('subscribed');
    expect(confirmed?.confirmed_at).toBeInstanceOf(Date);
    expect(confirmed?.due_in_days).toBeGreaterThan(29.99);
    expect(confirmed?.due_in_days).toBeLessThanOrEqual(30);
    expect(await signalsOf(suite.db, subscription.id)).toEqual(['confirm']);
  });

  it('opts in from the contact form and the estimate page too; the unticked box (or none) makes nothing', async () => {
    const agent = await createAgent(suite.db);
    const estimate = await newEstimate(agent.slug);
    const contact = contactForm({ agent_slug: agent.slug, estimate_uuid: estimate.uuid, updates_opt_in: true });
    expect((await sendLead(suite, contact)).updates).toBe('confirmation_sent');
    // The estimate page's form has no address: the seller says where the home is under the box.
    const page = estimatePageForm(estimate.uuid, { updates_opt_in: true, updates_place: '11706' });
    expect((await sendLead(suite, page)).updates).toBe('confirmation_sent');
    expect(await subscriptionsOf(suite.db, contact.email)).toHaveLength(1);
    expect(await subscriptionsOf(suite.db, page.email)).toHaveLength(1);

    const unticked = agentPageForm(agent.id, { estimate_uuid: estimate.uuid, updates_opt_in: false });
    const absent = estimatePageForm(estimate.uuid);
    // Ticked, but no estimate to update: nothing either, and nothing claimed.
    const noEstimate = agentPageForm(agent.id, { updates_opt_in: true });
    for (const form of [unticked, absent, noEstimate]) {
      expect((await sendLead(suite, form)).updates).toBe('none');
      expect(await subscriptionsOf(suite.db, form.email)).toEqual([]);
      expect(await confirmationsTo(suite.db, form.email)).toEqual([]);
    }
  });

  it('refuses an updates_opt_in that is not a boolean, and stores nothing', async () => {
    const agent = await createAgent(suite.db);
    const response = await suite.api.postJson('/api/leads', agentPageForm(agent.id, { updates_opt_in: 'yes' }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ fields: { updates_opt_in: 'updates_opt_in must be true or false' } });
  });

  it('sends an address at most its cap of confirmations; beyond it the lead and subscription are still saved', async () => {
    const email = uniqueEmail('capped');
    const answers: string[] = [];
    for (let n = 0; n <= CONFIRMATIONS_PER_RECIPIENT.limit; n += 1) {
      // Another agent each time: each is a subscription of its own.
      const agent = await createAgent(suite.db);
      const estimate = await newEstimate(agent.slug);
      answers.push(
        (await sendLead(suite, agentPageForm(agent.id, { email, estimate_uuid: estimate.uuid, updates_opt_in: true })))
          .updates,
      );
    }
    expect(answers).toEqual([...Array<string>(CONFIRMATIONS_PER_RECIPIENT.limit).fill('confirmation_sent'), 'limited']);
    expect(await subscriptionsOf(suite.db, email)).toHaveLength(CONFIRMATIONS_PER_RECIPIENT.limit + 1);
    expect(await confirmationsTo(suite.db, email)).toHaveLength(CONFIRMATIONS_PER_RECIPIENT.limit);
  });

  it('reuses the one subscription for a repeat, which takes the newer estimate; a confirmed one is not asked again', async () => {
    const agent = await createAgent(suite.db);
    const first = await newEstimate(agent.slug);
    const email = uniqueEmail('repeat');
    const form = (uuid: string) => agentPageForm(agent.id, { email, estimate_uuid: uuid, updates_opt_in: true });
    const one = await sendLead(suite, form(first.uuid));
    const second = await newEstimate(agent.slug);
    const two = await sendLead(suite, form(second.uuid));
    expect(two.leadId).toBe(one.leadId);
    expect(two.updates).toBe('confirmation_sent');
    const [subscription, ...more] = await subscriptionsOf(suite.db, email);
    expect(more).toEqual([]);
    expect(subscription?.estimate_uuid).toBe(second.uuid);
    if (!subscription) throw new Error('no subscription');
    // Both confirmations name the one subscription.
    const confirmations = await confirmationsTo(suite.db, email);
    expect(confirmations).toHaveLength(2);
    for (const { text } of confirmations) confirmTokenIn(text, subscription.id);

    // Confirmed: a later opt-in (a new lead, past the repeat window) neither subscribes again nor mails.
    await confirm(suite, confirmTokenIn(confirmations[0]?.text ?? '', subscription.id));
    await suite.db.query("UPDATE lead_claims SET claimed_at = now() - interval '1 day' WHERE lead_id = $1", [
      one.leadId,
    ]);
    const three = await sendLead(suite, form((await newEstimate(agent.slug)).uuid));
    expect(three.leadId).not.toBe(one.leadId);
    expect(three.updates).toBe('none');
    expect(await subscriptionsOf(suite.db, email)).toHaveLength(1);
    expect(await confirmationsTo(suite.db, email)).toHaveLength(2);
    // That new estimate from a subscribed seller is a re-run (the signals piece in the lead statement).
    expect(await signalsOf(suite.db, subscription.id)).toEqual(['confirm', 'rerun']);
    // A re-run makes the seller active: the agent is alerted once the answer is out.
    await suite.settle();
    const [active] = await suite.db.query<{ active: boolean; alerts: number }>(
      `SELECT s.active_at IS NOT NULL AS active,
              (SELECT count(*)::int FROM email_deliveries d WHERE d.kind = 'seller_active' AND d.lead_id = s.lead_id) AS alerts
         FROM seller_updates s WHERE s.id = $1`,
      [subscription.id],
    );
    expect(active).toEqual({ active: true, alerts: 1 });
  });

  it('queues no confirmation to an address on the suppression list, and does not say one was sent', async () => {
    const agent = await createAgent(suite.db);
    const estimate = await newEstimate(agent.slug);
    const email = uniqueEmail('suppressed');
    await suite.db.query("INSERT INTO email_suppressions (email, method) VALUES (lower($1), 'page')", [email]);
    const { updates } = await sendLead(
      suite,
      agentPageForm(agent.id, { email, estimate_uuid: estimate.uuid, updates_opt_in: true }),
    );
    expect(updates).toBe('none');
    expect(await confirmationsTo(suite.db, email)).toEqual([]);
  });
});
