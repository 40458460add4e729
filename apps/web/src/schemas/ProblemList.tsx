import type { InputProblem } from '../api/client';

interface ProblemListProps {
  id?: string;
  /** The list's accessible name, e.g. "Schema problems". */
  label: string;
  problems: InputProblem[];
  /** What a problem about the root (path "") is about. */
  rootLabel?: string;
}

/** Problems with the path each is about, so that each can be found in the JSON. */
export function ProblemList({ id, label, problems, rootLabel = '(the whole response format)' }: ProblemListProps) {
  return (
    <ul id={id} aria-label={label} className="space-y-1 text-sm text-red-800">
      {problems.map((problem) => (
        <li key={`${problem.path}\u0000${problem.message}`}>
          <code className="rounded bg-red-100 px-1 py-0.5 font-mono text-xs">{problem.path || rootLabel}</code> {problem.message}
        </li>
      ))}
    </ul>
  );
}
