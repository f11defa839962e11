import { useEffect, useId, useRef, useState } from 'react';
import { copyLink } from '../../../ui/clipboard.ts';

const COPIED = 'Secret copied to the clipboard.';

interface SecretPanelProps {
  /** What happened: the endpoint added, or a rotation with the old secret's overlap. */
  message: string;
  url: string;
  secret: string;
  onDismiss: () => void;
}

/**
 * An endpoint's signing secret, shown this once (after adding it or rotating its secret): the
 * server keeps it only encrypted and never answers it again. Focus moves here so a screen reader
 * hears it, and it stays until dismissed.
 */
export function WebhookSecretPanel({ message, url, secret, onDismiss }: SecretPanelProps) {
  const panelRef = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState('');
  const titleId = useId();
  useEffect(() => panelRef.current?.focus(), [secret]);
  return (
    <section ref={panelRef} tabIndex={-1} className="webhook-secret" aria-labelledby={titleId}>
      <h3 id={titleId}>Signing secret</h3>
      <p>{message}</p>
      <p className="webhook-url">Endpoint: {url}</p>
      <p>
        <strong>Copy it now: it will not be shown again.</strong>
      </p>
      <p className="webhook-secret-value">
        <code>{secret}</code>
      </p>
      <div className="nav-actions">
        <button
          type="button"
          className="button button-primary"
          onClick={() =>
            void copyLink(secret, COPIED).then((said) =>
              // The fallback names a link; for a secret, say what to do in its own words.
              setCopied(said === COPIED ? said : 'Your browser did not let us copy it: select the secret and copy it.'),
            )
          }
        >
          Copy secret
        </button>
        <button type="button" className="button button-secondary" onClick={onDismiss}>
          I have copied it
        </button>
      </div>
      <p role="status" className="webhook-copied">
        {copied}
      </p>
      <p className="field-hint">
        Each request is signed as <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> says (headers{' '}
        <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>): check it with this
        secret and a Standard Webhooks library, such as npm <code>standardwebhooks</code>. The events’ bodies are in the{' '}
        <a href="/developers/api">API reference</a> and the <code>webhooks</code> section of{' '}
        <a href="/api/openapi.json">/api/openapi.json</a>.
      </p>
    </section>
  );
}
