import { useCallback } from 'react';
import { usePreference } from '../../api/preferences';

/** How the document page's panels are laid out; remembered per user. */
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

/** Whatever is stored, as a layout: the defaults stand in for what is missing or wrong. */
function parsePanelPrefs(stored: unknown): PanelPrefs {
  if (typeof stored !== 'object' || stored === null) return defaultPanelPrefs;
  const prefs = stored as Partial<Record<keyof PanelPrefs, unknown>>;
  const width = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
  return {
    leftWidth: width(prefs.leftWidth, defaultPanelPrefs.leftWidth),
    rightWidth: width(prefs.rightWidth, defaultPanelPrefs.rightWidth),
    leftOpen: typeof prefs.leftOpen === 'boolean' ? prefs.leftOpen : defaultPanelPrefs.leftOpen,
    rightOpen: typeof prefs.rightOpen === 'boolean' ? prefs.rightOpen : defaultPanelPrefs.rightOpen,
    centerView: prefs.centerView === 'text' ? 'text' : defaultPanelPrefs.centerView,
  };
}

/** The panel layout of the signed-in user, on the server and in this browser. */
export function usePanelPrefs(): [PanelPrefs, (change: Partial<PanelPrefs>) => void] {
  const [prefs, updatePrefs] = usePreference('document-panels', 'docagent:document-panels:v1:', parsePanelPrefs);
  const update = useCallback(
    (change: Partial<PanelPrefs>) => updatePrefs((current) => ({ ...current, ...change })),
    [updatePrefs],
  );
  return [prefs, update];
}
