import type { ReactNode } from 'react';
import type { ChatItem } from './chatItems';
import { PhaseLabel, StepPhase } from './StepPhase';

interface StepGroupProps {
  step: number;
  items: Array<{ item: ChatItem; index: number }>;
  orgId: string;
  /** The step is the turn's latest and the turn still runs. */
  live: boolean;
  /** Draws the items the list draws everywhere (tool cards). */
  renderItem: (item: ChatItem, index: number) => ReactNode;
}

/** What the running step is doing, as far as its frames tell. */
function liveHint(items: ChatItem[]): string | null {
  if (!items.some((item) => item.kind === 'phase' && item.phase === 'reason')) return 'Reasoning…';
  if (items.some((item) => item.kind === 'phase' && item.phase === 'observe')) return null;
  return items.some((item) => item.kind === 'tool' && (item.status === 'running' || item.status === 'pending'))
    ? null
    : 'Working…';
}

/** One Reason–Act–Observe step on the turn's timeline: its badge, then its phases in order. */
export function StepGroup({ step, items, orgId, live, renderItem }: StepGroupProps) {
  const hint = live ? liveHint(items.map(({ item }) => item)) : null;
  return (
    <section aria-label={`Step ${step}`} className="space-y-2">
      <span className="inline-block rounded-full bg-slate-800 px-2 py-0.5 text-xs font-semibold text-white tabular-nums">
        Step {step}
      </span>
      <div className="ml-2 space-y-2 border-l-2 border-slate-200 pl-3">
        {items.map(({ item, index }, at) => {
          if (item.kind === 'phase') return <StepPhase key={item.key} item={item} orgId={orgId} />;
          if (item.kind !== 'tool') return null;
          // The act phase's label goes before its first call.
          const first = items[at - 1]?.item.kind !== 'tool';
          return (
            <div key={item.key} className="space-y-1">
              {first && <PhaseLabel phase="act" />}
              {renderItem(item, index)}
            </div>
          );
        })}
        {hint && <p className="text-xs text-slate-500 motion-safe:animate-pulse">{hint}</p>}
      </div>
    </section>
  );
}
