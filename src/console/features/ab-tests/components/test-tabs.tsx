/**
 * The tabs of a test's page, Overview and Results, with the chosen one in the address
 * (`?tab=results`) so a link opens it. Arrow keys, Home and End move between tabs.
 */
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface Tab<Id extends string> {
  readonly id: Id;
  readonly label: string;
  readonly panel: () => ReactNode;
}

interface TestTabsProps<Id extends string> {
  label: string;
  tabs: readonly Tab<Id>[];
  selected: Id;
  onSelect: (id: Id) => void;
}

export function TestTabs<Id extends string>({
  label,
  tabs,
  selected,
  onSelect,
}: TestTabsProps<Id>) {
  const id = useId();
  const buttons = useRef(new Map<Id, HTMLButtonElement>());
  const current = tabs.find((tab) => tab.id === selected) ?? tabs[0];

  const move = (event: KeyboardEvent, index: number) => {
    const to =
      event.key === 'ArrowRight'
        ? (index + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : null;
    const tab = to === null ? undefined : tabs[to];
    if (!tab) return;
    event.preventDefault();
    onSelect(tab.id);
    buttons.current.get(tab.id)?.focus();
  };

  return (
    <>
      <div role="tablist" aria-label={label} className="tabs">
        {tabs.map((tab, index) => (
          <button
            key={tab.id}
            ref={(element) => {
              if (element) buttons.current.set(tab.id, element);
              else buttons.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={`${id}-${tab.id}-tab`}
            aria-selected={tab === current}
            // Only the chosen tab's panel is in the page.
            aria-controls={tab === current ? `${id}-${tab.id}-panel` : undefined}
            tabIndex={tab === current ? 0 : -1}
            className="tab"
            onClick={() => onSelect(tab.id)}
            onKeyDown={(event) => move(event, index)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {current && (
        <div
          role="tabpanel"
          id={`${id}-${current.id}-panel`}
          aria-labelledby={`${id}-${current.id}-tab`}
          className="tab-panel"
        >
          {current.panel()}
        </div>
      )}
    </>
  );
}
