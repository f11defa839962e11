import { lazy, Suspense } from 'react';
import type { RefineFormProps } from '../use-refine-form.ts';

/** The form and the town list it names counties from load when the seller asks to refine, not with the page. */
const RefineForm = lazy(() => import('../RefineForm.tsx').then((module) => ({ default: module.RefineForm })));

export function RefineFormOnDemand(props: RefineFormProps) {
  return (
    <Suspense fallback={<p className="field-hint">Loading the form…</p>}>
      <RefineForm {...props} />
    </Suspense>
  );
}
