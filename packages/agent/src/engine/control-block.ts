import { z } from 'zod';

/**
 * A phase's answer: free text for the person and, at its end, a JSON control object (bare or in
 * a ```json fence). A missing or malformed object leaves `control` null: the text is all there is.
 */
export function splitControl<T extends z.ZodType>(text: string, schema: T): { content: string; control: z.infer<T> | null } {
  const found = trailingJson(text);
  if (!found) return { content: text.trim(), control: null };
  const parsed = schema.safeParse(found.value);
  if (!parsed.success) return { content: text.trim(), control: null };
  return { content: text.slice(0, found.start).trim(), control: parsed.data };
}

const FENCE = /```(?:json)?\s*([\s\S]*?)```\s*$/i;

function trailingJson(text: string): { start: number; value: unknown } | null {
  const fenced = FENCE.exec(text);
  if (fenced) {
    const value = parseObject(fenced[1] ?? '');
    return value === undefined ? null : { start: fenced.index, value };
  }
  const end = text.trimEnd();
  if (!end.endsWith('}')) return null;
  // From the last brace back: the first start that parses is the whole trailing object.
  for (let i = end.lastIndexOf('{'); i >= 0; i = end.lastIndexOf('{', i - 1)) {
    const value = parseObject(end.slice(i));
    if (value !== undefined) return { start: i, value };
    if (i === 0) break;
  }
  return null;
}

function parseObject(candidate: string): unknown {
  try {
    const value: unknown = JSON.parse(candidate.trim());
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export const ReasonControl = z.object({
  plan: z.string().optional(),
  tools_to_consider: z.array(z.string()).optional(),
  finish: z.boolean().optional(),
});

export const ObserveControl = z.object({
  observation: z.string().optional(),
  should_continue: z.boolean().optional(),
  final_answer: z.string().optional(),
});
