import { useState } from 'react';
import { tokenFromUrl } from '../accounts/public/account-api.ts';
import { callApi } from '../../ui/api-client.ts';
import { CONFIRM_API_PATH, confirmResultSchema, confirmTokenSchema, INVALID_CONFIRM_LINK } from './confirm.ts';
import { BackHome, FormAlert, SERVER_UNREACHABLE } from '../../ui/LinkPageParts.tsx';

type State =
  | { kind: 'invalid'; message: string }
  | { kind: 'ready'; token: string; error?: string }
  | { kind: 'working'; token: string }
  | { kind: 'done'; status: 'confirmed' | 'already_confirmed' }
  /** The server refused for good (unsubscribed, no longer exists): its words, no button. */
  | { kind: 'refused'; message: string };

/**
 * /updates/confirm?token=…, the link of the double opt-in's e-mail. Opening it changes nothing (mail
 * scanners follow links on their own); the seller confirms with the button, and the page says what was
 * done only once the API said so.
 */
export default function ConfirmUpdates() {
  // Rendered in the browser only (client:only), so the link's token can be read at once.
  const [state, setState] = useState<State>(() => {
    const token = tokenFromUrl() ?? '';
    return confirmTokenSchema.safeParse(token).success
      ? { kind: 'ready', token }
      : { kind: 'invalid', message: INVALID_CONFIRM_LINK };
  });

  const submit = async (token: string) => {
    setState({ kind: 'working', token });
    const result = await callApi(CONFIRM_API_PATH, confirmResultSchema, { body: { token } }).catch(() => null);
    if (result === null) setState({ kind: 'ready', token, error: SERVER_UNREACHABLE });
    else if (result.ok) setState({ kind: 'done', status: result.data.status });
    else if (result.status === 400) setState({ kind: 'invalid', message: result.error });
    else if (result.status === 404 || result.status === 409) setState({ kind: 'refused', message: result.error });
    else setState({ kind: 'ready', token, error: result.error });
  };

  return (
    <section className="account-card" aria-labelledby="confirm-updates-title">
      <h1 id="confirm-updates-title">Monthly updates</h1>
      {state.kind === 'invalid' || state.kind === 'refused' ? (
        <div className="form">
          <FormAlert message={state.message} />
          <BackHome />
        </div>
      ) : null}
      {state.kind === 'ready' || state.kind === 'working' ? (
        <>
          <p>
            You asked for a monthly update of your estimated net: what you would walk away with if you sold now, with
            your agent’s current terms and your home’s market.
          </p>
          <p className="field-hint">
            About once a month, less often after a few you have not clicked through; every update has an unsubscribe
            link.
          </p>
          <div className="form">
            <FormAlert message={state.kind === 'ready' ? state.error : undefined} />
            <button
              type="button"
              className="button button-primary button-block"
              disabled={state.kind === 'working'}
              onClick={() => void submit(state.token)}
            >
              {state.kind === 'working' ? 'Confirming…' : 'Yes, send me monthly updates'}
            </button>
            <BackHome />
          </div>
        </>
      ) : null}
      {state.kind === 'done' ? (
        <div className="form">
          <p role="status">
            {state.status === 'confirmed' ? (
              <>
                <strong>You’re confirmed.</strong> Your first update of your estimated net comes in about a month.
              </>
            ) : (
              <>
                <strong>Already confirmed.</strong> Your monthly updates were confirmed before; nothing changed.
              </>
            )}
          </p>
          <BackHome />
        </div>
      ) : null}
    </section>
  );
}
