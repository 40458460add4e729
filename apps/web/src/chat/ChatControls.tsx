import type { ReactNode } from 'react';
import { createPortal } from 'react-dom';

/**
 * The agent panel's one row of compact controls (conversation, new, extraction, settings). A page
 * that offers a place for it in the panel's header (`slot`) gets it there, which leaves the
 * conversation another row of height; otherwise it sits above the conversation. Its popovers open
 * below it, over the conversation.
 */
export function ChatControls({ slot, children }: { slot: HTMLElement | null; children: ReactNode }) {
  const row = <div className="relative flex min-w-0 items-center gap-1.5">{children}</div>;
  return slot ? createPortal(row, slot) : <div className="shrink-0">{row}</div>;
}
