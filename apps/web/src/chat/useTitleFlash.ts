import { useEffect } from 'react';

const FLASH_MS = 1000;

/**
 * While active, the tab's title alternates with the message every second, so that a person on
 * another tab sees the agent waits for them; with reduced motion asked for, it only leads the title.
 * The title comes back when it ends.
 */
export function useTitleFlash(active: boolean, message: string): void {
  useEffect(() => {
    if (!active) return;
    const title = document.title;
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) {
      document.title = `${message} · ${title}`;
      return () => {
        document.title = title;
      };
    }
    let flashed = true;
    document.title = message;
    const timer = setInterval(() => {
      flashed = !flashed;
      document.title = flashed ? message : title;
    }, FLASH_MS);
    return () => {
      clearInterval(timer);
      document.title = title;
    };
  }, [active, message]);
}
