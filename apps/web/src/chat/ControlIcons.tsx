/** The icons of the agent panel's row of controls, where words would leave the conversation's title no room. */

const iconProps = {
  viewBox: '0 0 20 20',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.6,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  className: 'size-4 shrink-0',
} as const;

export function PlusIcon() {
  return (
    <svg aria-hidden="true" {...iconProps}>
      <path d="M10 4v12M4 10h12" />
    </svg>
  );
}

/** Rows of fields and values: the current extraction. */
export function TableIcon() {
  return (
    <svg aria-hidden="true" {...iconProps}>
      <rect x="3" y="4" width="14" height="12" rx="1.5" />
      <path d="M3 8h14M3 12h14M8 4v12" />
    </svg>
  );
}

/** Sliders: the agent's settings. */
export function SlidersIcon() {
  return (
    <svg aria-hidden="true" {...iconProps}>
      <path d="M4 6h7M15 6h1M4 14h1M9 14h7" />
      <circle cx="13" cy="6" r="2" />
      <circle cx="7" cy="14" r="2" />
    </svg>
  );
}
