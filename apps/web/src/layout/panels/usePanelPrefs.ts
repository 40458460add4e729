import { useCallback, useEffect, useState } from 'react';

/** How the document page's panels are laid out; remembered per user in this browser. */
export interface PanelPrefs {
  leftWidth: number;
  rightWidth: number;
  leftOpen: boolean;
  rightOpen: boolean;
  centerView: 'document' | 'text';
}

export const defaultPanelPrefs: PanelPrefs = {
  leftWidth: 320,
  rightWidth: 380,
  leftOpen: true,
  rightOpen: true,
  centerView: 'document',
};

const STORAGE_PREFIX = 'docagent:document-panels:v1:';

function storageKey(userId: string): string {
  return `${STORAGE_PREFIX}${userId}`;
}

function readPrefs(userId: string): PanelPrefs {
  try {
    const raw = window.localStorage.getItem(storageKey(userId));
    if (raw === null) return defaultPanelPrefs;
    const stored = JSON.parse(raw) as Partial<Record<keyof PanelPrefs, unknown>>;
    return {
      leftWidth:
        typeof stored.leftWidth === 'number' && Number.isFinite(stored.leftWidth)
          ? stored.leftWidth
          : defaultPanelPrefs.leftWidth,
      rightWidth:
        typeof stored.rightWidth === 'number' && Number.isFinite(stored.rightWidth)
          ? stored.rightWidth
          : defaultPanelPrefs.rightWidth,
      leftOpen: typeof stored.leftOpen === 'boolean' ? stored.leftOpen : defaultPanelPrefs.leftOpen,
      rightOpen: typeof stored.rightOpen === 'boolean' ? stored.rightOpen : defaultPanelPrefs.rightOpen,
      centerView: stored.centerView === 'text' ? 'text' : defaultPanelPrefs.centerView,
    };
  } catch {
    // Storage may be unavailable (private mode) or hold something unreadable: start from the defaults.
    return defaultPanelPrefs;
  }
}

/** The panel layout of the signed-in user, persisted to localStorage under their id. */
export function usePanelPrefs(userId: string): [PanelPrefs, (change: Partial<PanelPrefs>) => void] {
  const [prefs, setPrefs] = useState<PanelPrefs>(() => readPrefs(userId));

  useEffect(() => {
    try {
      window.localStorage.setItem(storageKey(userId), JSON.stringify(prefs));
    } catch {
      // Not remembering the layout is no reason to fail the page.
    }
  }, [userId, prefs]);

  const update = useCallback((change: Partial<PanelPrefs>) => setPrefs((current) => ({ ...current, ...change })), []);
  return [prefs, update];
}
