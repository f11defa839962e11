import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import * as z from 'zod';
import { callApi } from '../../ui/api-client.ts';
import { Field } from '../../ui/Field.tsx';
import { priceInputProps } from '../../ui/price-input.ts';
import { Notice } from '../../ui/Notice.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import type { PublicAgentResponse } from '../accounts/public/public-agent.ts';
import {
  estimateRequestSchema,
  estimateSchema,
  UUID_PATTERN,
  type Estimate,
} from '../net-sheet/public/estimate-request.ts';
import { NetSheet } from '../net-sheet/public/NetSheet.tsx';
import { MORTGAGE_FIELD, mortgageMessage, SALE_PRICE_FIELD } from '../estimate/public/calculator-fields.ts';
import { DetailedSheet } from '../net-sheet/public/DetailedSheet.tsx';
import { RefineFormOnDemand } from '../net-sheet/public/RefineFormOnDemand.tsx';
import { agentPageLeadSchema, leadAnswerSchema, type LeadAnswer } from '../leads/public/lead.ts';
import { useLeadSubmission } from '../leads/public/use-lead-submission.ts';
import { forgetVisitor, rememberedVisitor, unlockLead, type RememberedVisitor } from './remembered-visitor.ts';
import { unlockMessage } from './unlock-message.ts';
import { optInMessage } from '../seller-updates/public/opt-in.ts';
import { sheetAnswerSchema, type SheetAnswer, type SheetDefaultsAnswer } from '../net-sheet/public/sheet-answer.ts';
import { CALCULATOR_TABS, ReverseForm, SalePriceAnswer, type CalculatorTab } from '../net-sheet/public/ReverseForm.tsx';
import { copyLink } from '../../ui/clipboard.ts';
import { AgentContact } from './AgentContact.tsx';
import { AgentHeader } from './AgentHeader.tsx';
import { AgentPageLoading, CalculatorComingSoon, NoCalculator } from './AgentPageStates.tsx';
import { LockedEstimate } from './LockedEstimate.tsx';
import { UnlockModal } from './UnlockModal.tsx';
import { usePublicAgent } from './use-public-agent.ts';
import { EMBED_PATH } from '../embed/public/embed-links.ts';

/**
 * In the embedded calculator's frame, the estimate page's tools open in a tab of their own: that
 * page may be framed by no site (frame-ancestors 'none'), so followed inside the frame it would show
 * the browser's refusal on the agent's site. Read when an estimate is shown: always in the browser.
 */
const toolLinkTarget = (): { target?: '_blank'; rel?: string } =>
  typeof window !== 'undefined' && window.location.pathname.startsWith(EMBED_PATH)
    ? { target: '_blank', rel: 'noopener' }
    : {};

/**
 * The page's URL names the estimate shown (`?estimate=`, or none), keeping its other parameters:
 * in the embedded frame, `host` names the page it is on, which its leads carry (decision 0058).
 */
function nameEstimateInUrl(uuid: string | null): void {
  const params = new URLSearchParams(window.location.search);
  if (uuid) params.set('estimate', uuid);
  else params.delete('estimate');
  const query = params.toString();
  window.history.replaceState(null, '', `${window.location.pathname}${query ? `?${query}` : ''}`);
}

const createdSchema = z.object({ success: z.literal(true), estimate: estimateSchema });

type Refine =
  | { kind: 'closed' }
  | { kind: 'loading' }
  | { kind: 'open'; details: Record<string, unknown> | null; defaults: SheetDefaultsAnswer };

/**
 * /r/{slug}: an agent's branded calculator; the breakdown unlocks once the visitor leaves details.
 * `agent`: the agent as GET /api/agents/public/{slug} answers, when the page was rendered with it
 * (src/app/shell-pages.server.ts); without it the page loads the agent named in the URL.
 */
export default function AgentCalculatorPage({ agent: given }: { agent?: PublicAgentResponse | undefined }) {
  const loaded = usePublicAgent(given);
  const [form, setForm] = useState({ salePrice: '', mortgage: '' });
  const [errors, setErrors] = useState<{ salePrice?: string | undefined; mortgage?: string | undefined }>({});
  const [calculating, setCalculating] = useState(false);
  const [tab, setTab] = useState<CalculatorTab>('price');
  const [estimate, setEstimate] = useState<Estimate | null>(null);
  /** Set when the estimate answers "what must I sell for?": the price it found. */
  const [answeredPrice, setAnsweredPrice] = useState<number | null>(null);
  const [unlocking, setUnlocking] = useState(false);
  const [unlockedFor, setUnlockedFor] = useState<{
    email: string;
    emailed: LeadAnswer['estimate_email'];
    updates?: LeadAnswer['updates'];
  } | null>(null);
  const [copyMessage, setCopyMessage] = useState<string | null>(null);
  const [refine, setRefine] = useState<Refine>({ kind: 'closed' });
  const [refineError, setRefineError] = useState<string | null>(null);
  // Once refined: the detailed sheet and the address of its estimate, for the seller to share.
  const [refined, setRefined] = useState<{ sheet: SheetAnswer; link: string } | null>(null);
  // A visitor remembered from an earlier unlock on this agent's page (remembered-visitor.ts): read
  // from the browser's storage when a result is shown (never while rendering, so the server's HTML
  // and the hydrating render agree), then kept here as the visitor unlocks or says "Not you?".
  const [remembered, setRemembered] = useState<RememberedVisitor | null>(null);
  const { submitLead } = useLeadSubmission(leadAnswerSchema);
  // "Your estimate": brought into view with the focus once the detailed sheet replaces the form below
  // it, which left a seller scrolled down past its top (newcomer audit minor 23).
  const estimateHeadingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!refined) return;
    const heading = estimateHeadingRef.current;
    heading?.scrollIntoView({ block: 'start' });
    heading?.focus({ preventScroll: true });
  }, [refined]);

  // A reload, or a link to this page with its result (?estimate=…), shows that result again (audit M2).
  const readyAgentId = loaded.kind === 'ready' ? loaded.data.agent.id : null;
  useEffect(() => {
    if (readyAgentId === null) return;
    const uuid = new URLSearchParams(window.location.search).get('estimate');
    if (!uuid || !UUID_PATTERN.test(uuid)) return;
    callApi(`/api/estimates/${uuid}`, createdSchema)
      .then((result) => {
        // Only this agent's estimate belongs on this agent's page.
        if (!result.ok || result.data.estimate.agent_id !== readyAgentId) return;
        setEstimate(result.data.estimate);
        const known = rememberedVisitor(readyAgentId);
        setRemembered(known);
        // Their lead already holds it: shown unlocked, and nothing said of an e-mail.
        if (known) setUnlockedFor({ email: known.email, emailed: { status: 'none', retry_after_seconds: null } });
      })
      .catch((error: unknown) => console.warn('Could not load the estimate', error));
  }, [readyAgentId]);

  if (loaded.kind === 'loading') return <AgentPageLoading />;
  if (loaded.kind !== 'ready') return <NoCalculator kind={loaded.kind} />;

  const { agent, profile_complete: profileComplete } = loaded.data;
  const fullName = `${agent.first_name} ${agent.last_name}`;
  if (!profileComplete) return <CalculatorComingSoon agent={agent} />;

  const calculate = async (event: SubmitEvent) => {
    event.preventDefault();
    const parsed = estimateRequestSchema.safeParse({
      agent_slug: agent.slug,
      sale_price: form.salePrice,
      mortgage_payoff: form.mortgage === '' ? undefined : form.mortgage,
    });
    const found: typeof errors = {};
    if (form.mortgage === '') found.mortgage = `${MORTGAGE_FIELD.label} is required`;
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        if (issue.path[0] === 'sale_price') found.salePrice ??= issue.message;
        if (issue.path[0] === 'mortgage_payoff') found.mortgage ??= mortgageMessage(issue.message);
      }
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setCalculating(true);
    try {
      const result = await callApi('/api/estimates', createdSchema, {
        body: {
          agent_slug: agent.slug,
          sale_price: form.salePrice.replace(/,/g, ''),
          mortgage_payoff: form.mortgage.replace(/,/g, ''),
        },
      });
      if (result.ok) {
        setAnsweredPrice(null);
        await showResult(result.data.estimate);
      } else console.warn('Estimate failed', result.error);
    } catch (error) {
      console.warn('Estimate failed', error);
    } finally {
      setCalculating(false);
    }
  };

  /**
   * A new result: its own URL (a reload or a shared link shows it again), and for a remembered
   * visitor, unlocked with their details as their lead's newer estimate (audit M2). Should that lead
   * be refused, the result stays locked and the unlock form opens filled in.
   */
  const showResult = async (made: Estimate) => {
    setEstimate(made);
    setUnlockedFor(null);
    nameEstimateInUrl(made.uuid);
    const known = rememberedVisitor(agent.id);
    setRemembered(known);
    if (!known) return;
    const outcome = await submitLead(agentPageLeadSchema, unlockLead(agent.id, made, known)).catch(() => null);
    if (outcome?.kind === 'accepted') setUnlockedFor({ email: known.email, emailed: outcome.answer.estimate_email });
  };

  /** The estimate's own page, for the seller to keep or send on (audit M2). */
  const copyEstimateLink = async (shown: Estimate) => {
    const url = new URL(`/estimate/${shown.uuid}`, window.location.href).href;
    setCopyMessage(await copyLink(url, 'Link to this estimate copied to clipboard!'));
  };

  /** "Not you?": this browser forgets the visitor, and the result locks again. */
  const forget = () => {
    forgetVisitor(agent.id);
    setRemembered(null);
    setUnlockedFor(null);
  };

  const startOver = () => {
    nameEstimateInUrl(null);
    setEstimate(null);
    setRefine({ kind: 'closed' });
    setRefined(null);
    setRefineError(null);
    setAnsweredPrice(null);
    setUnlockedFor(null);
    setForm({ salePrice: '', mortgage: '' });
    setErrors({});
  };

  /** Opens the refine form with the estimate's stored details and the agent's defaults. */
  const startRefining = async (uuid: string) => {
    setRefine({ kind: 'loading' });
    setRefineError(null);
    const result = await callApi(`/api/estimates/${uuid}/sheet`, sheetAnswerSchema).catch(() => null);
    if (result?.ok) {
      setRefine({ kind: 'open', details: result.data.details, defaults: result.data.defaults });
      return;
    }
    setRefine({ kind: 'closed' });
    setRefineError('We could not open the refine form just now. Please try again in a moment.');
  };

  const share = async () => {
    const url = window.location.href;
    if (typeof navigator.share === 'function') {
      await navigator.share({ title: `${fullName}: Net to Seller Calculator`, url }).catch(() => undefined);
      return;
    }
    setCopyMessage(await copyLink(url, 'Link copied to clipboard!'));
  };

  const price = (key: 'salePrice' | 'mortgage') =>
    priceInputProps(form[key], (grouped) => setForm({ ...form, [key]: grouped }));

  return (
    <div className="agent-page">
      <AgentHeader agent={agent} onShare={() => void share()} />
      <Notice tone="success" message={copyMessage} />

      {estimate && unlockedFor ? (
        <section aria-labelledby="your-estimate" className="unlocked">
          <h2 id="your-estimate" ref={estimateHeadingRef} tabIndex={-1} className="scroll-target">
            Your estimate
          </h2>
          {answeredPrice === null ? null : <SalePriceAnswer salePrice={answeredPrice} />}
          {refined ? (
            <>
              <DetailedSheet sheet={refined.sheet} />
              <p className="note" role="status">
                Your refined estimate has a link of its own to share:{' '}
                <a className="refine-link" href={refined.link}>
                  {refined.link}
                </a>
              </p>
            </>
          ) : (
            <>
              <NetSheet estimate={estimate} />
              <p className="note" role="status">
                {unlockMessage(unlockedFor.email, unlockedFor.emailed, agent.first_name)}
                {unlockedFor.updates && optInMessage(unlockedFor.updates)
                  ? ` ${optInMessage(unlockedFor.updates)}`
                  : null}
              </p>
            </>
          )}
          {remembered ? (
            <p className="note remembered-visitor">
              Unlocked for {unlockedFor.email} in this browser.{' '}
              <button type="button" className="link-button" onClick={forget}>
                Not you?
              </button>
            </p>
          ) : null}
          <div className="estimate-share">
            <a className="button button-secondary" href={`/api/estimates/${estimate.uuid}/pdf`} download>
              Download PDF
            </a>
            <button type="button" className="button button-secondary" onClick={() => void copyEstimateLink(estimate)}>
              Copy link to this estimate
            </button>
          </div>
          {/* The estimate page's tools, which this page does not load (newcomer audit 2026-11-26, minor 22). */}
          <nav className="estimate-tools" aria-label="More with this estimate">
            <a className="button button-secondary" href={`/estimate/${estimate.uuid}#range`} {...toolLinkTarget()}>
              Your net at other prices
            </a>
            <a className="button button-secondary" href={`/estimate/${estimate.uuid}#offers`} {...toolLinkTarget()}>
              Compare offers
            </a>
          </nav>
          {refine.kind === 'open' ? (
            <RefineFormOnDemand
              estimate={estimate}
              details={refine.details}
              defaults={refine.defaults}
              onCancel={() => setRefine({ kind: 'closed' })}
              onRefined={(made) => {
                setEstimate(made.estimate);
                // The page's URL names the refined estimate: a reload shows it (audit M2).
                nameEstimateInUrl(made.estimate.uuid);
                setRefined({
                  sheet: made.sheet,
                  link: new URL(`/estimate/${made.estimate.uuid}`, window.location.href).href,
                });
                setRefine({ kind: 'closed' });
              }}
            />
          ) : (
            <button
              type="button"
              className="button button-secondary button-block"
              disabled={refine.kind === 'loading'}
              onClick={() => void startRefining(estimate.uuid)}
            >
              {refine.kind === 'loading' ? 'Opening…' : 'Refine this estimate'}
            </button>
          )}
          <Notice tone="error" message={refineError} />
          <button type="button" className="button button-primary button-block" onClick={startOver}>
            Start New Calculation
          </button>
        </section>
      ) : estimate ? (
        <LockedEstimate onUnlock={() => setUnlocking(true)} onStartOver={startOver} />
      ) : (
        <Tabs label="Calculator" tabs={CALCULATOR_TABS} selected={tab} onSelect={setTab}>
          {tab === 'price' ? (
            <form className="form" noValidate onSubmit={(event) => void calculate(event)}>
              <Field
                label={SALE_PRICE_FIELD.label}
                name="salePrice"
                placeholder={SALE_PRICE_FIELD.placeholder}
                required
                error={errors.salePrice}
                {...price('salePrice')}
              />
              <Field
                label={MORTGAGE_FIELD.label}
                name="mortgage"
                placeholder={MORTGAGE_FIELD.placeholder}
                required
                error={errors.mortgage}
                {...price('mortgage')}
              />
              <button type="submit" className="button button-primary button-block" disabled={calculating}>
                {calculating ? 'Calculating...' : 'Calculate'}
              </button>
            </form>
          ) : (
            <ReverseForm
              agentSlug={agent.slug}
              payoff={{
                value: form.mortgage,
                onChange: (mortgage) => setForm({ ...form, mortgage }),
                label: MORTGAGE_FIELD.label,
                name: MORTGAGE_FIELD.label,
                required: true,
                placeholder: MORTGAGE_FIELD.placeholder,
              }}
              onEstimate={(answer) => {
                setAnsweredPrice(answer.sale_price);
                void showResult(answer.estimate);
              }}
            />
          )}
        </Tabs>
      )}

      {estimate ? (
        <UnlockModal
          open={unlocking}
          agentId={agent.id}
          agentFirstName={agent.first_name}
          senderName={fullName}
          estimate={estimate}
          onClose={() => setUnlocking(false)}
          onUnlocked={(email, emailed, updates) => {
            setUnlocking(false);
            // The unlock form has just remembered them in this browser.
            setRemembered(rememberedVisitor(agent.id));
            setUnlockedFor({ email, emailed, updates });
          }}
        />
      ) : null}
      <AgentContact agent={agent} />
    </div>
  );
}
