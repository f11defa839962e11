/**
 * Confirming monthly updates (POST /api/updates/confirm) and ending them by unsubscribing, over real
 * HTTP on both backends: a valid token confirms once (twice says so), a forged or wrong-kind token
 * is refused with 400, an unsubscribed or suppressed address is refused with 409, a deleted one 404;
 * POST /api/email/unsubscribe ends the address's subscriptions in its own statement.
 */
import { describe, expect, it } from 'vitest';
import { unsubscribeSigner } from '../../src/features/email/unsubscribe.server.ts';
import {
  CONFIRM_GONE,
  CONFIRM_SUPPRESSED,
  CONFIRM_UNSUBSCRIBED,
  confirmResultSchema,
  INVALID_CONFIRM_LINK,
} from '../../src/features/seller-updates/confirm.ts';
import { updateLinkSigner } from '../../src/features/seller-updates/public/update-links.server.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { TEST_EMAIL_AUTH, useEmailSuite } from '../support/email-suite.ts';
import { createAgent } from '../support/fixtures.ts';
import { leadForms } from '../support/lead-forms.ts';
import {
  confirm,
  confirmationsTo,
  confirmTokenIn,
  sendLead,
  SIGNER,
  signalsOf,
  subscriptionsOf,
} from '../support/seller-opt-in.ts';

describe.each(BACKENDS)('confirming seller updates on %s', (backend) => {
  const suite = useEmailSuite(backend, 'seller-confirm');
  const { newEstimate, uniqueEmail, agentPageForm } = leadForms(suite);

  /** An opted-in lead: its address, subscription id and the token of its confirmation e-mail. */
  const optIn = async () => {
    const agent = await createAgent(suite.db);
    const estimate = await newEstimate(agent.slug);
    const email = uniqueEmail('confirming');
    await sendLead(suite, agentPageForm(agent.id, { email, estimate_uuid: estimate.uuid, updates_opt_in: true }));
    const [subscription] = await subscriptionsOf(suite.db, email);
    const [confirmation] = await confirmationsTo(suite.db, email);
    if (!subscription || !confirmation) throw new Error('no subscription or confirmation');
    return { email, id: subscription.id, token: confirmTokenIn(confirmation.text, subscription.id) };
  };

  it('confirms once; a second confirmation says it was confirmed already and changes nothing', async () => {
    const { email, id, token } = await optIn();
    expect(await expectJson(await confirm(suite, token), 200, confirmResultSchema)).toEqual({
      success: true,
      status: 'confirmed',
    });
    const [first] = await subscriptionsOf(suite.db, email);
    expect(await expectJson(await confirm(suite, token), 200, confirmResultSchema)).toEqual({
      success: true,
      status: 'already_confirmed',
    });
    // The same row (next_due_at, confirmed_at and all); only the seconds until it is due went by.
    const [again, ...more] = await subscriptionsOf(suite.db, email);
    expect(more).toEqual([]);
    expect({ ...again, due_in_days: 0 }).toEqual({ ...first, due_in_days: 0 });
    expect(await signalsOf(suite.db, id)).toEqual(['confirm']);
  });

  it('refuses a forged token, one of another kind and a malformed one with 400, and confirms nothing', async () => {
    const { email, id } = await optIn();
    const otherKey = updateLinkSigner(new TextEncoder().encode('not-the-session-key-of-this-site-0123'));
    const forged = otherKey.token({ subscriptionId: id, period: 0, link: 'confirm' });
    const sheet = SIGNER.token({ subscriptionId: id, period: 1, link: 'sheet' });
    for (const token of [forged, sheet, 'not-a-token', '']) {
      const body = await expectError(await confirm(suite, token), 400, INVALID_CONFIRM_LINK);
      expect(body.fields).toEqual({ token: INVALID_CONFIRM_LINK });
    }
    const [subscription] = await subscriptionsOf(suite.db, email);
    expect(subscription?.state).toBe('pending');
    expect(await signalsOf(suite.db, id)).toEqual([]);
  });

  it('answers 404 for a subscription that no longer exists', async () => {
    const { id, token } = await optIn();
    await suite.db.query('DELETE FROM seller_updates WHERE id = $1', [id]);
    await expectError(await confirm(suite, token), 404, CONFIRM_GONE);
  });

  it('unsubscribing ends the subscription in the same statement; confirming it then is refused with 409', async () => {
    const { email, id, token } = await optIn();
    await confirm(suite, token);
    const unsubscribe = unsubscribeSigner(TEST_EMAIL_AUTH.sessionKey).token(email);
    expect((await suite.api.postJson('/api/email/unsubscribe', { token: unsubscribe })).status).toBe(200);
    const [ended] = await subscriptionsOf(suite.db, email);
    expect(ended).toMatchObject({ id, state: 'unsubscribed', ended_reason: 'link', due_in_days: null });
    expect(ended?.ended_at).toBeInstanceOf(Date);

    await expectError(await confirm(suite, token), 409, CONFIRM_UNSUBSCRIBED);
    // Undo restores e-mail but not the updates: they stay ended (the page says so).
    const undo = await suite.api.fetch('/api/email/unsubscribe', {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: unsubscribe }),
    });
    expect(undo.status).toBe(200);
    expect((await subscriptionsOf(suite.db, email))[0]?.state).toBe('unsubscribed');
  });

  it('refuses to confirm for an address that was put on the suppression list while pending', async () => {
    const { email, id, token } = await optIn();
    await suite.db.query("INSERT INTO email_suppressions (email, method) VALUES (lower($1), 'one_click')", [email]);
    await expectError(await confirm(suite, token), 409, CONFIRM_SUPPRESSED);
    expect((await subscriptionsOf(suite.db, email))[0]?.state).toBe('pending');
    expect(await signalsOf(suite.db, id)).toEqual([]);
  });
});
