/**
 * The webhooks card's parts that are not on its first paint, loaded when first shown (`React.lazy`):
 * the add and edit form, the delivery log and the secret panel. The signed-in screens have a budget
 * of JavaScript before interaction (tests/e2e/light-pages.spec.ts); a visitor who only looks at the
 * list does not pay for them.
 */
import { lazy, Suspense, type ReactNode } from 'react';

export const WebhookEndpointForm = lazy(() =>
  import('./WebhookEndpointForm.tsx').then((module) => ({ default: module.WebhookEndpointForm })),
);
export const WebhookDeliveries = lazy(() =>
  import('./WebhookDeliveries.tsx').then((module) => ({ default: module.WebhookDeliveries })),
);
export const WebhookSecretPanel = lazy(() =>
  import('./WebhookSecretPanel.tsx').then((module) => ({ default: module.WebhookSecretPanel })),
);

/** Where such a part is shown: "Loading…" while its code is on its way. */
export function OnDemand({ children }: { children: ReactNode }) {
  return <Suspense fallback={<p aria-live="polite">Loading…</p>}>{children}</Suspense>;
}
