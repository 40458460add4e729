import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';

/** A unified diff between two texts, with the count of lines it adds and removes. */
export interface NoteDiff {
  /** Unified diff text with 3 lines of context; empty when the texts are the same. */
  diff: string;
  additions: number;
  deletions: number;
}

/** The unified diff from `before` to `after`, headed by the two labels (e.g. "Shopping (version 2)"). */
export function unifiedDiff(before: string, after: string, labels: { before: string; after: string }): NoteDiff {
  const patch = structuredPatch(labels.before, labels.after, before, after, undefined, undefined, { context: 3 });
  let additions = 0;
  let deletions = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) additions += 1;
      else if (line.startsWith('-')) deletions += 1;
    }
  }
  if (patch.hunks.length === 0) return { diff: '', additions, deletions };
  return { diff: formatPatch(patch, FILE_HEADERS_ONLY), additions, deletions };
}
