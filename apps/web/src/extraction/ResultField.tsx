import { useId } from 'react';
import type { InputProblem } from '../api/client';
import type { FieldDraft } from './fieldDrafts';
import { ValueField } from './ValueField';

interface ResultFieldProps {
  name: string;
  draft: FieldDraft;
  /** The problems about this field or something inside it. */
  problems: InputProblem[];
  disabled: boolean;
  onChange: (draft: FieldDraft) => void;
}

/** What is wrong with the field, each problem with its path when it is about a part of the field. */
function problemText(name: string, problems: InputProblem[]): string | undefined {
  if (problems.length === 0) return undefined;
  return problems.map(({ path, message }) => (path === name ? message : `${path}: ${message}`)).join(' ');
}

/** One top-level field of a result, edited by its type, with what is wrong with it underneath. */
export function ResultField({ name, draft, problems, disabled, onChange }: ResultFieldProps) {
  const errorId = useId();
  const error = problemText(name, problems);
  return (
    <div>
      <ValueField
        name={name}
        path={name}
        citePath={name}
        draft={draft}
        invalidPaths={new Set(problems.map((problem) => problem.path))}
        disabled={disabled}
        describedBy={error ? errorId : undefined}
        onChange={onChange}
      />
      {error && (
        <p id={errorId} className="mt-1 text-xs text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
