import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { tabAfterKey } from './tabs.ts';

interface TabsProps<Id extends string> {
  /** Names the tablist for screen readers ("Calculator"). */
  label: string;
  tabs: readonly { id: Id; label: string }[];
  selected: Id;
  onSelect: (id: Id) => void;
  /** The selected tab's panel (only it is rendered: the others' fields would share its labels). */
  children: ReactNode;
}

/**
 * Tabs as the WAI-ARIA Authoring Practices describe them: one tab stop (the selected tab), the arrow
 * keys, Home and End move the selection and the focus, and the panel is labelled by its tab.
 */
export function Tabs<Id extends string>({ label, tabs, selected, onSelect, children }: TabsProps<Id>) {
  const baseId = useId();
  const buttons = useRef(new Map<Id, HTMLButtonElement>());
  const tabId = (id: Id) => `${baseId}-tab-${id}`;
  const panelId = `${baseId}-panel`;

  const onKeyDown = (event: KeyboardEvent) => {
    const current = tabs.findIndex((tab) => tab.id === selected);
    const next = tabs[tabAfterKey(event.key, current, tabs.length) ?? -1];
    if (!next) return;
    event.preventDefault();
    onSelect(next.id);
    buttons.current.get(next.id)?.focus();
  };

  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tab-list" onKeyDown={onKeyDown}>
        {tabs.map((tab) => {
          const isSelected = tab.id === selected;
          return (
            <button
              key={tab.id}
              ref={(element) => {
                if (element) buttons.current.set(tab.id, element);
                else buttons.current.delete(tab.id);
              }}
              type="button"
              role="tab"
              id={tabId(tab.id)}
              className="tab"
              aria-selected={isSelected}
              aria-controls={isSelected ? panelId : undefined}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => onSelect(tab.id)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={panelId} aria-labelledby={tabId(selected)} className="tab-panel">
        {children}
      </div>
    </div>
  );
}
