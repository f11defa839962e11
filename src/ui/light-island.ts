/**
 * Pages whose island the server renders with its data (/r/{slug}, /estimate/{uuid}; decision 0025):
 * the HTML is complete without JavaScript, and React loads only when the visitor shows intent
 * (pointer over, focus in, touch or a key on the island). What the visitor types or presses before
 * React has hydrated is kept: the fields keep their values and hand them to React, and the buttons
 * pressed are pressed again once it listens. Kept free of React so the pages stay light.
 */

/** A page's island module, loaded on intent. */
export interface IslandModule {
  /**
   * Hydrates `container` from `data`, what the server rendered it with (undefined: the shell as built,
   * rendered afresh), calling `onCommitted` as soon as React has hydrated it.
   */
  hydrate: (container: HTMLElement, data: unknown, onCommitted: () => void) => void;
}

/** The islands these pages have: the id of each one's container. */
export const LIGHT_ISLANDS = { agentPage: 'agent-page', estimatePage: 'estimate-page' } as const;
export type LightIsland = (typeof LIGHT_ISLANDS)[keyof typeof LIGHT_ISLANDS];

/** The id of the `<script type="application/json">` holding an island's data. */
export const islandDataId = (island: LightIsland): string => `${island}-data`;

/**
 * Written right after each island's container in the page: where the server's rendering of it ends
 * (the container is a `<div>` holding other `<div>`s, so its own `</div>` cannot be found alone).
 */
export const ISLAND_END = '<!--/light-island-->';

const INTENT = ['pointerover', 'focusin', 'touchstart', 'keydown'] as const;

export function hydrateOnIntent(
  island: LightIsland,
  load: () => Promise<IslandModule>,
  /** `now`: the page has something to show at once (a result named in its URL): no wait for intent. */
  { now = false }: { now?: boolean } = {},
): void {
  const container = document.getElementById(island);
  if (!container) return;
  const dataTag = document.getElementById(islandDataId(island));
  const data: unknown = dataTag ? JSON.parse(dataTag.textContent ?? 'null') : undefined;
  /** What was pressed or submitted before React listened, in order. */
  const pending: (() => void)[] = [];

  // Held rather than lost: a submit button's press (Enter in a field presses it too) would
  // otherwise send the form the browser's way, reloading the page. Held until React has been given
  // every field: a press React saw while it still held a field empty (hydrated, but the hand-over
  // not done) calculated with that field empty. React's own listeners sit on this container too,
  // after this one: stopping the event here keeps React from seeing a press that is replayed later.
  const hold = (event: Event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (event.type === 'submit' && target instanceof HTMLFormElement) {
      event.preventDefault();
      event.stopImmediatePropagation();
      pending.push(() => target.requestSubmit());
    } else if (event.type === 'click') {
      const button = target?.closest('button');
      if (!button || !container.contains(button)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      pending.push(() => button.click());
    }
    start();
  };

  const committed = () => {
    void handOver(container).then(async () => {
      container.removeEventListener('click', hold, true);
      container.removeEventListener('submit', hold, true);
      // Pressed before React listened or during the hand-over, in order.
      for (const press of pending.splice(0)) {
        await nextTask();
        press();
      }
    });
  };

  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const type of INTENT) container.removeEventListener(type, start);
    load()
      .then(({ hydrate }) => hydrate(container, data, committed))
      .catch((error: unknown) => console.warn('Could not load the page’s script', error));
  };

  // The shell as built (the server could not render the island): it renders itself at once.
  if (data === undefined) {
    start();
    return;
  }
  container.addEventListener('click', hold, true);
  container.addEventListener('submit', hold, true);
  for (const type of INTENT) container.addEventListener(type, start, { passive: true });
  if (now) start();
}

/**
 * Gives React what the visitor typed, ticked or chose before it hydrated. One field at a time, each
 * in a task of its own: a form's handlers build the next state from the one they were rendered
 * with. What each field holds is read first, as React's first render after a change sets every
 * field of the form to the value React holds for it.
 */
async function handOver(container: HTMLElement): Promise<void> {
  const changes = [...container.querySelectorAll('input, textarea, select')].flatMap(changeOf);
  for (const change of changes) {
    change();
    await nextTask();
  }
}

/** The next task: React has rendered what the last event changed (it renders in a microtask). */
const nextTask = () => new Promise((resolve) => setTimeout(resolve));

/**
 * What the visitor changed in one field, to be told to React: none if nothing. React reads a
 * field's value as it finds it when hydrating and calls onChange only when the value differs from
 * the one it last saw: so it is first shown the server's value, then the visitor's comes back with
 * an event.
 */
function changeOf(field: Element): (() => void)[] {
  if (field instanceof HTMLInputElement && field.type === 'checkbox') {
    const checked = field.checked;
    if (checked === field.defaultChecked) return [];
    return [
      () => {
        field.checked = !checked;
        field.click();
      },
    ];
  }
  if (field instanceof HTMLInputElement && field.type === 'radio') {
    // The one the visitor chose; the others of its group follow.
    if (!field.checked || field.defaultChecked) return [];
    return [
      () => {
        field.checked = false;
        field.click();
      },
    ];
  }
  if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) {
    const typed = field.value;
    if (typed === field.defaultValue) return [];
    const prototype = field instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
    return [
      () => {
        // Through React's own setter: it now knows the field's value as the server rendered it.
        field.value = field.defaultValue;
        Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, typed);
        field.dispatchEvent(new Event('input', { bubbles: true }));
      },
    ];
  }
  if (field instanceof HTMLSelectElement) {
    const chosen = field.value;
    if ([...field.options].every((option) => option.selected === option.defaultSelected)) return [];
    return [
      () => {
        field.value = chosen;
        field.dispatchEvent(new Event('change', { bubbles: true }));
      },
    ];
  }
  return [];
}
