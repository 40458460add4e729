import { type ReactNode, useId, useRef } from 'react';
import { useElementWidth } from '../../lib/useElementWidth';
import { ChevronIcon } from './PanelIcons';
import { ResizeDivider } from './ResizeDivider';
import type { PanelPrefs } from './usePanelPrefs';

const LEFT_MIN = 260;
const LEFT_MAX = 720;
const RIGHT_MIN = 300;
const RIGHT_MAX = 820;
/** The document in the middle keeps at least this much room. */
const CENTER_MIN = 360;
const DIVIDER = 8;
const RAIL = 40;

interface SidePanel {
  /** Named in the buttons: "Collapse {name}", "Expand {name}". */
  name: string;
  /** Shown on the collapsed rail. */
  title: string;
  /** The panel's header row, next to its collapse button. */
  header: ReactNode;
  children: ReactNode;
  /**
   * The content fills the panel and scrolls its own parts (the agent's conversation, with its
   * message box always in view) instead of the panel scrolling as a whole.
   */
  fill?: boolean;
}

interface ThreePanelLayoutProps {
  prefs: PanelPrefs;
  onChange: (change: Partial<PanelPrefs>) => void;
  left: SidePanel;
  center: ReactNode;
  right: SidePanel;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), Math.max(min, max));
}

/** "agent panel" names its region "Agent panel". */
function labelOf(panel: SidePanel): string {
  return `${panel.name.charAt(0).toUpperCase()}${panel.name.slice(1)}`;
}

function CollapsedRail({ side, panel, onExpand }: { side: 'left' | 'right'; panel: SidePanel; onExpand: () => void }) {
  return (
    <div
      className={`flex w-10 shrink-0 flex-col items-center gap-3 bg-slate-50 py-2 ${side === 'left' ? 'border-r' : 'border-l'} border-slate-200`}
    >
      <button
        type="button"
        aria-label={`Expand ${panel.name}`}
        title={`Expand ${panel.name}`}
        aria-expanded={false}
        onClick={onExpand}
        className="rounded-md p-1.5 text-slate-600 hover:bg-slate-200 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-slate-500"
      >
        <ChevronIcon direction={side === 'left' ? 'right' : 'left'} />
      </button>
      <button
        type="button"
        tabIndex={-1}
        aria-hidden="true"
        onClick={onExpand}
        className="text-xs font-medium tracking-wide text-slate-500 [writing-mode:vertical-rl] hover:text-slate-900"
      >
        {panel.title}
      </button>
    </div>
  );
}

function PanelHeader({
  side,
  panel,
  panelId,
  onCollapse,
}: {
  side: 'left' | 'right';
  panel: SidePanel;
  panelId: string;
  onCollapse: () => void;
}) {
  return (
    <div className="flex shrink-0 items-center gap-2 border-b border-slate-200 px-3">
      <div className="min-w-0 flex-1">{panel.header}</div>
      <button
        type="button"
        aria-label={`Collapse ${panel.name}`}
        title={`Collapse ${panel.name}`}
        aria-expanded={true}
        aria-controls={panelId}
        onClick={onCollapse}
        className="rounded-md p-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-slate-500"
      >
        <ChevronIcon direction={side} />
      </button>
    </div>
  );
}

/**
 * A side panel's body: scrolled as a whole, or laid out by a content that fills it. Relative, so that
 * absolutely placed descendants (hidden labels among them) stay in it rather than stretch the page.
 */
function PanelBody({ panel }: { panel: SidePanel }) {
  return panel.fill ? (
    <div className="relative min-h-0 flex-1 overflow-hidden px-3 pt-2 pb-3">{panel.children}</div>
  ) : (
    <div className="relative min-h-0 flex-1 overflow-y-auto overscroll-contain p-4">{panel.children}</div>
  );
}

/**
 * Three panels side by side, filling their container's height: a side panel on the left, the main content in
 * the middle and another side panel on the right. The side panels are resized by dragging (or with the arrow
 * keys on) their dividers, and collapse to a narrow rail. Each panel scrolls on its own.
 */
export function ThreePanelLayout({ prefs, onChange, left, center, right }: ThreePanelLayoutProps) {
  const ref = useRef<HTMLDivElement>(null);
  const width = useElementWidth(ref);
  const leftId = useId();
  const rightId = useId();

  // Before the first measurement, assume a roomy window; the layout settles on the next frame.
  const total = width > 0 ? width : 1600;
  const rightSpace = prefs.rightOpen ? DIVIDER : RAIL;
  const leftSpace = prefs.leftOpen ? DIVIDER : RAIL;
  const leftMax = Math.min(LEFT_MAX, total - CENTER_MIN - rightSpace - (prefs.rightOpen ? RIGHT_MIN : 0) - leftSpace);
  const leftWidth = clamp(prefs.leftWidth, LEFT_MIN, leftMax);
  const rightMax = Math.min(RIGHT_MAX, total - CENTER_MIN - leftSpace - (prefs.leftOpen ? leftWidth : 0) - rightSpace);
  const rightWidth = clamp(prefs.rightWidth, RIGHT_MIN, rightMax);

  return (
    <div ref={ref} className="flex h-full overflow-hidden rounded-lg border border-slate-200 bg-white">
      {!prefs.leftOpen && <CollapsedRail side="left" panel={left} onExpand={() => onChange({ leftOpen: true })} />}
      {/* A collapsed panel stays mounted, hidden, so that what goes on in it (a running turn, a draft) goes on. */}
      <section
        id={leftId}
        aria-label={labelOf(left)}
        hidden={!prefs.leftOpen}
        style={{ width: leftWidth }}
        className="flex min-h-0 shrink-0 flex-col"
      >
        <PanelHeader side="left" panel={left} panelId={leftId} onCollapse={() => onChange({ leftOpen: false })} />
        <PanelBody panel={left} />
      </section>
      {prefs.leftOpen && (
        <ResizeDivider
          label={`Resize ${left.name}`}
          controls={leftId}
          value={leftWidth}
          min={LEFT_MIN}
          max={Math.max(LEFT_MIN, leftMax)}
          direction={1}
          onChange={(next) => onChange({ leftWidth: next })}
        />
      )}
      <div className="flex min-h-0 min-w-0 flex-1 flex-col">{center}</div>
      {prefs.rightOpen && (
        <ResizeDivider
          label={`Resize ${right.name}`}
          controls={rightId}
          value={rightWidth}
          min={RIGHT_MIN}
          max={Math.max(RIGHT_MIN, rightMax)}
          direction={-1}
          onChange={(next) => onChange({ rightWidth: next })}
        />
      )}
      <section
        id={rightId}
        aria-label={labelOf(right)}
        hidden={!prefs.rightOpen}
        style={{ width: rightWidth }}
        className="flex min-h-0 shrink-0 flex-col"
      >
        <PanelHeader side="right" panel={right} panelId={rightId} onCollapse={() => onChange({ rightOpen: false })} />
        <PanelBody panel={right} />
      </section>
      {!prefs.rightOpen && <CollapsedRail side="right" panel={right} onExpand={() => onChange({ rightOpen: true })} />}
    </div>
  );
}
