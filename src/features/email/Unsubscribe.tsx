import { useState } from 'react';
import { tokenFromUrl } from '../accounts/public/account-api.ts';
import { callApi } from '../../ui/api-client.ts';
import { BackHome, FormAlert, SERVER_UNREACHABLE } from '../../ui/LinkPageParts.tsx';
import {
  emailInToken,
  INVALID_UNSUBSCRIBE_LINK,
  UNSUBSCRIBE_API_PATH,
  unsubscribeResultSchema,
  UPDATES_STAY_ENDED,
  WHAT_STILL_COMES,
  WHAT_STOPS,
} from './unsubscribe.ts';

type State =
  | { kind: 'invalid'; message: string }
  | { kind: 'ready'; token: string; email: string; error?: string }
  | { kind: 'working'; token: string; email: string }
  | { kind: 'unsubscribed'; token: string; email: string; error?: string; busy?: boolean }
  | { kind: 'subscribed'; token: string; email: string };

/**
 * /unsubscribe?token=…, the link in every e-mail's footer. Opening it changes nothing (link
 * scanners open links too); the visitor confirms with the button. Works without an account.
 */
export default function Unsubscribe() {
  // Rendered in the browser only (client:only), so the link's token can be read at once.
  const [state, setState] = useState<State>(() => {
    const token = tokenFromUrl() ?? '';
    const email = emailInToken(token);
    return email === null ? { kind: 'invalid', message: INVALID_UNSUBSCRIBE_LINK } : { kind: 'ready', token, email };
  });

  const call = async (method: 'POST' | 'DELETE', token: string, email: string) => {
    setState(
      method === 'POST' ? { kind: 'working', token, email } : { kind: 'unsubscribed', token, email, busy: true },
    );
    const result = await callApi(UNSUBSCRIBE_API_PATH, unsubscribeResultSchema, { method, body: { token } }).catch(
      () => null,
    );
    const error = result === null ? SERVER_UNREACHABLE : result.ok ? undefined : result.error;
    if (result?.ok === false && result.status === 400) {
      setState({ kind: 'invalid', message: result.error });
    } else if (method === 'POST') {
      setState(error ? { kind: 'ready', token, email, error } : { kind: 'unsubscribed', token, email });
    } else {
      setState(error ? { kind: 'unsubscribed', token, email, error } : { kind: 'subscribed', token, email });
    }
  };

  return (
    <section className="account-card" aria-labelledby="unsubscribe-title">
      <h1 id="unsubscribe-title">Unsubscribe</h1>
      {state.kind === 'invalid' ? (
        <div className="form">
          <FormAlert message={state.message} />
          <BackHome />
        </div>
      ) : null}
      {state.kind === 'ready' || state.kind === 'working' ? (
        <>
          <p>
            Stop e-mail to <strong>{state.email}</strong>? {WHAT_STOPS}
          </p>
          <p className="field-hint">{WHAT_STILL_COMES}</p>
          <div className="form">
            <FormAlert message={state.kind === 'ready' ? state.error : undefined} />
            <button
              type="button"
              className="button button-primary button-block"
              disabled={state.kind === 'working'}
              onClick={() => void call('POST', state.token, state.email)}
            >
              {state.kind === 'working' ? 'Unsubscribing…' : 'Unsubscribe'}
            </button>
            <BackHome />
          </div>
        </>
      ) : null}
      {state.kind === 'unsubscribed' ? (
        <>
          <div role="status">
            <p>
              <strong>You’re unsubscribed.</strong> {WHAT_STOPS} This applies to <strong>{state.email}</strong>.
            </p>
            <p>{WHAT_STILL_COMES}</p>
          </div>
          <div className="form">
            <FormAlert message={state.error} />
            <button
              type="button"
              className="button button-secondary"
              disabled={state.busy}
              onClick={() => void call('DELETE', state.token, state.email)}
            >
              Undo: keep e-mailing me
            </button>
            <BackHome />
          </div>
        </>
      ) : null}
      {state.kind === 'subscribed' ? (
        <div className="form">
          <p role="status">
            <strong>You’re subscribed again.</strong> E-mail to {state.email} starts again with the next message.
          </p>
          <p className="field-hint">{UPDATES_STAY_ENDED}</p>
          <BackHome />
        </div>
      ) : null}
    </section>
  );
}
