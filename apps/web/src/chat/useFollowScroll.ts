import { type RefObject, useCallback, useLayoutEffect, useRef, useState } from 'react';

/** Within this many pixels of the bottom, the person is reading the latest and the list keeps following. */
const AT_BOTTOM = 48;

/**
 * Keeps a scrolling list at its newest content as it grows (a streamed answer, a new card, a card
 * that opens) or as the list itself gets shorter (an approval pinned below it), unless the person
 * scrolled up to read; scrolling back down, or `jumpToLatest`, follows again. A new `resetKey` (another
 * conversation) starts at its latest content.
 */
export function useFollowScroll(
  list: RefObject<HTMLElement | null>,
  content: RefObject<HTMLElement | null>,
  resetKey: string | undefined,
) {
  const following = useRef(true);
  const lastTop = useRef(0);
  const [behind, setBehind] = useState(false);

  const toBottom = useCallback(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [list]);

  // Only a move up stops the following: the list getting shorter or its content longer (a scroll
  // event may report those before the list is taken down again) leaves the top where it was.
  const onScroll = useCallback(() => {
    const element = list.current;
    if (!element) return;
    const atBottom = element.scrollHeight - element.scrollTop - element.clientHeight <= AT_BOTTOM;
    if (atBottom) following.current = true;
    else if (element.scrollTop < lastTop.current) following.current = false;
    lastTop.current = element.scrollTop;
    setBehind(!following.current);
  }, [list]);

  const jumpToLatest = useCallback(() => {
    following.current = true;
    setBehind(false);
    toBottom();
  }, [toBottom]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: another conversation starts at its latest message
  useLayoutEffect(jumpToLatest, [resetKey, jumpToLatest]);

  useLayoutEffect(() => {
    const observed = [list.current, content.current].filter((element): element is HTMLElement => element !== null);
    const observer = new ResizeObserver(() => {
      if (following.current) toBottom();
    });
    for (const element of observed) observer.observe(element);
    return () => observer.disconnect();
  }, [list, content, toBottom]);

  return { behind, onScroll, jumpToLatest };
}
