import { createContext, type ReactNode, useContext, useState, useSyncExternalStore } from 'react';
import type { Citation } from '../api/extraction';

/**
 * The one citation the document page shows: the Extraction panel sets it when a field is hovered
 * or focused, the viewer draws its boxes and turns to its page. It stays until another field is
 * pointed at, so that the person can move to the page and click a box.
 */
export interface ActiveCitation {
  /** The result the field belongs to (its prompt revision): several prompts may cite the same path. */
  source: string;
  citation: Citation;
}

interface Store {
  get: () => ActiveCitation | null;
  set: (next: ActiveCitation | null) => void;
  subscribe: (listener: () => void) => () => void;
}

function createStore(): Store {
  let current: ActiveCitation | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    set: (next) => {
      const same =
        next === current ||
        (next !== null && current !== null && next.source === current.source && next.citation === current.citation);
      if (same) return;
      current = next;
      for (const listener of listeners) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const ActiveCitationContext = createContext<Store | null>(null);

/** Shares the active citation between the Extraction panel and the viewer below it. */
export function ActiveCitationProvider({ children }: { children: ReactNode }) {
  const [store] = useState(createStore);
  return <ActiveCitationContext value={store}>{children}</ActiveCitationContext>;
}

const noSubscription = () => () => {};
const nothing = () => null;

/** The citation to show; null when none is, or outside a provider. */
export function useActiveCitation(): ActiveCitation | null {
  const store = useContext(ActiveCitationContext);
  return useSyncExternalStore(store?.subscribe ?? noSubscription, store?.get ?? nothing);
}

/** Whether the field at `path` of `source` is the one shown (re-renders only when that changes). */
export function useIsActiveCitation(source: string, path: string): boolean {
  const store = useContext(ActiveCitationContext);
  const isActive = () => {
    const active = store?.get();
    return active?.source === source && active.citation.path === path;
  };
  return useSyncExternalStore(store?.subscribe ?? noSubscription, isActive);
}

/** Shows a citation (null: none); does nothing outside a provider. */
export function useShowCitation(): (next: ActiveCitation | null) => void {
  const store = useContext(ActiveCitationContext);
  return store?.set ?? noop;
}

function noop() {}
