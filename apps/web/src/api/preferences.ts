import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSession } from '../auth/session';
import { getJson, putNoContent } from './client';

type Preferences = Record<string, unknown>;

const preferencesQueryKey = ['account', 'preferences'];
/** A panel being dragged changes its width many times a second: what is saved is where it settles. */
const SAVE_DELAY_MS = 300;

function usePreferencesQuery() {
  return useQuery({
    queryKey: preferencesQueryKey,
    queryFn: async () => (await getJson<{ preferences: Preferences }>('/v0/account/preferences')).preferences,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

function readCache(cacheKey: string): unknown {
  try {
    const raw = window.localStorage.getItem(cacheKey);
    return raw === null ? undefined : JSON.parse(raw);
  } catch {
    // Storage may be unavailable (private mode) or hold something unreadable.
    return undefined;
  }
}

function writeCache(cacheKey: string, value: unknown): void {
  try {
    window.localStorage.setItem(cacheKey, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the server still keeps it.
  }
}

/**
 * A preference of the signed-in user (`key` on the server, `cacheKey` plus their id in this
 * browser). The server's copy follows the person to any browser; the browser's copy lets a page
 * open with it before the server answers, and is sent up when the server has none yet. Both are
 * written once a change settles. `parse`
 * turns whatever is stored into a valid value (defaults for what is missing or wrong). A save that
 * fails leaves the preference remembered in this browser; the next change tries again.
 */
export function usePreference<T>(
  key: string,
  cacheKey: string,
  parse: (stored: unknown) => T,
): [T, (change: (current: T) => T) => void] {
  const { user } = useSession();
  const localKey = `${cacheKey}${user.id}`;
  // Read once: whether this browser had a copy decides whether it is sent up.
  const [cached] = useState(() => readCache(localKey));
  const [value, setValue] = useState<T>(() => parse(cached));
  const current = useRef(value);
  const changed = useRef(false);
  const pending = useRef<{ timer: number; value: T } | null>(null);
  const queryClient = useQueryClient();
  const server = usePreferencesQuery();

  const save = useCallback(
    (next: T) => {
      writeCache(localKey, next);
      return putNoContent(`/v0/account/preferences/${encodeURIComponent(key)}`, { body: { value: next } }).then(
        () => queryClient.setQueryData<Preferences>(preferencesQueryKey, (all) => ({ ...all, [key]: next })),
        () => {},
      );
    },
    [key, localKey, queryClient],
  );

  // The server's copy wins over this browser's until the person changes something here.
  useEffect(() => {
    if (server.data === undefined || changed.current) return;
    if (key in server.data) {
      const next = parse(server.data[key]);
      current.current = next;
      setValue(next);
      writeCache(localKey, next);
    } else if (cached !== undefined) {
      void save(current.current);
    }
  }, [server.data, key, localKey, parse, save, cached]);

  // Leaving the page (in the app) saves what is still waiting.
  useEffect(
    () => () => {
      if (pending.current) {
        window.clearTimeout(pending.current.timer);
        void save(pending.current.value);
      }
    },
    [save],
  );

  const update = useCallback(
    (change: (current: T) => T) => {
      const next = change(current.current);
      current.current = next;
      changed.current = true;
      setValue(next);
      // Saved (here and on the server) once the change settles, not at every step of a drag.
      if (pending.current) window.clearTimeout(pending.current.timer);
      const timer = window.setTimeout(() => {
        pending.current = null;
        void save(next);
      }, SAVE_DELAY_MS);
      pending.current = { timer, value: next };
    },
    [save],
  );

  return [value, update];
}
