import type { Evaluation, EvaluationReport } from '../../api/evaluations';

/** One field's accuracy in one revision, and how it moved from the revision before (null: no change or nothing to compare). */
export interface AccuracyCell {
  correct: number;
  total: number;
  accuracy: number;
  change: 'up' | 'down' | null;
}

export interface AccuracyColumn {
  evaluation: Evaluation;
  /** Null while its report is loading. */
  report: EvaluationReport | null;
}

export interface AccuracyRow {
  field: string;
  /** One per column; null where the revision has no value of the field (or its report is not there yet). */
  cells: (AccuracyCell | null)[];
}

export interface AccuracyTable {
  columns: AccuracyColumn[];
  rows: AccuracyRow[];
  overall: (AccuracyCell | null)[];
}

/**
 * The evaluated revisions: the latest evaluation of each version (a cancelled one only when the
 * version has nothing else), oldest version first. `evaluations` comes newest first.
 */
export function evaluatedRevisions(evaluations: Evaluation[]): Evaluation[] {
  const byVersion = new Map<number, Evaluation>();
  for (const evaluation of evaluations) {
    const chosen = byVersion.get(evaluation.prompt_version);
    if (!chosen || (chosen.status === 'cancelled' && evaluation.status !== 'cancelled')) {
      byVersion.set(evaluation.prompt_version, evaluation);
    }
  }
  return [...byVersion.values()].sort((a, b) => a.prompt_version - b.prompt_version);
}

function changeOf(previous: AccuracyCell | null | undefined, accuracy: number): AccuracyCell['change'] {
  if (!previous || previous.accuracy === accuracy) return null;
  return accuracy > previous.accuracy ? 'up' : 'down';
}

/** Each cell marked against the cell to its left. */
function withChanges(cells: (Omit<AccuracyCell, 'change'> | null)[]): (AccuracyCell | null)[] {
  const marked: (AccuracyCell | null)[] = [];
  cells.forEach((cell, index) => {
    marked.push(cell ? { ...cell, change: changeOf(marked[index - 1], cell.accuracy) } : null);
  });
  return marked;
}

/** The fields × revisions table: the latest revision's fields first, then those only earlier ones had. */
export function buildAccuracyTable(columns: Evaluation[], reports: ReadonlyMap<string, EvaluationReport>): AccuracyTable {
  const withReports = columns.map((evaluation) => ({ evaluation, report: reports.get(evaluation.evaluation_id) ?? null }));
  const fields: string[] = [];
  for (const { report } of [...withReports].reverse()) {
    for (const field of report?.accuracy.fields ?? []) {
      if (!fields.includes(field.path)) fields.push(field.path);
    }
  }
  const rows = fields.map((field) => ({
    field,
    cells: withChanges(
      withReports.map(({ report }) => {
        const found = report?.accuracy.fields.find((f) => f.path === field);
        return found ? { correct: found.correct, total: found.total, accuracy: found.accuracy } : null;
      }),
    ),
  }));
  const overall = withChanges(
    withReports.map(({ report }) => {
      if (!report || report.accuracy.overall === null) return null;
      const { correct, total, overall: accuracy } = report.accuracy;
      return { correct, total, accuracy };
    }),
  );
  return { columns: withReports, rows, overall };
}

/** 0.6667 → "66.7 %", 1 → "100 %". */
export function percent(accuracy: number): string {
  const value = Math.round(accuracy * 1000) / 10;
  return `${Number.isInteger(value) ? value.toFixed(0) : value.toFixed(1)} %`;
}

/** A compared value as shown: strings as they are, nothing as "—", anything else as JSON. */
export function shownValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value === '' ? '""' : value;
  return JSON.stringify(value);
}
