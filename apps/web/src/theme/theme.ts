import { useSyncExternalStore } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

const STORAGE_KEY = 'docagent.theme';
const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');
const listeners = new Set<() => void>();

function readChoice(): ThemeChoice {
  const stored = localStorage.getItem(STORAGE_KEY);
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

/** The one place that decides whether the page is dark: the person's choice, else the system's. */
function applyTheme(): void {
  const choice = readChoice();
  const dark = choice === 'dark' || (choice === 'system' && darkQuery().matches);
  const root = document.documentElement;
  if (root.classList.contains('dark') === dark) return;
  // The whole page changes at once: elements with a colour transition would otherwise fade one by one.
  root.classList.add('theme-switching');
  root.classList.toggle('dark', dark);
  requestAnimationFrame(() => requestAnimationFrame(() => root.classList.remove('theme-switching')));
}

/** Called once before the first render, so a dark system never flashes a light page. */
export function startTheme(): void {
  applyTheme();
  darkQuery().addEventListener('change', applyTheme);
  // Another tab changed the choice: follow it.
  window.addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEY) return;
    applyTheme();
    for (const listener of listeners) listener();
  });
}

export function setThemeChoice(choice: ThemeChoice): void {
  if (choice === 'system') localStorage.removeItem(STORAGE_KEY);
  else localStorage.setItem(STORAGE_KEY, choice);
  applyTheme();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(subscribe, readChoice);
}
