import { useEffect, useEffectEvent, useId, useState } from 'react';

const debounceMs = 300;

interface NameSearchProps {
  /** What is searched, for screen readers: "Search documents by name". */
  label: string;
  /** The search the list currently shows. */
  value: string;
  onSearch: (nameSearch: string) => void;
}

/** A name search that asks the server only once typing pauses. */
export function NameSearch({ label, value, onSearch }: NameSearchProps) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  const [shownValue, setShownValue] = useState(value);
  const search = useEffectEvent(onSearch);

  // The search can also change from outside (clearing the filters, the back button).
  if (value !== shownValue) {
    setShownValue(value);
    if (value !== draft.trim()) {
      setDraft(value);
    }
  }

  useEffect(() => {
    const nameSearch = draft.trim();
    if (nameSearch === value) {
      return;
    }
    const timer = window.setTimeout(() => search(nameSearch), debounceMs);
    return () => window.clearTimeout(timer);
  }, [draft, value]);

  return (
    <div className="w-full max-w-xs">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        placeholder="Search by name"
        autoComplete="off"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        className="block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 shadow-xs focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none"
      />
    </div>
  );
}
