/** An item as grouping needs it: one of a step says which (free of imports for the node tests; chatItems' ChatItem is one). */
interface Stepped {
  key: string;
  step?: number;
}

/** The conversation as the list draws it: items on their own, and the steps of a Reason–Act–Observe turn. */
export type Segment<Item> =
  | { kind: 'item'; item: Item; index: number }
  | { kind: 'step'; key: string; step: number; items: Array<{ item: Item; index: number }> };

/** Groups each run of consecutive items of one step; `index` is the item's place in the conversation. */
export function segmentsOf<Item extends Stepped>(items: Item[]): Segment<Item>[] {
  const segments: Segment<Item>[] = [];
  for (const [index, item] of items.entries()) {
    const step = item.step;
    const last = segments.at(-1);
    if (step === undefined) segments.push({ kind: 'item', item, index });
    else if (last?.kind === 'step' && last.step === step) last.items.push({ item, index });
    else segments.push({ kind: 'step', key: `step-${item.key}`, step, items: [{ item, index }] });
  }
  return segments;
}
