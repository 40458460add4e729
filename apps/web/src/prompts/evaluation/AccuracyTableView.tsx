import type { AccuracyCell, AccuracyTable } from './accuracyTable';
import { percent } from './accuracyTable';

/** Which differences are listed: one evaluation's, of one field or (null) of all. */
export interface DifferenceChoice {
  evaluationId: string;
  field: string | null;
}

interface AccuracyTableViewProps {
  table: AccuracyTable;
  chosen: DifferenceChoice | null;
  onChoose: (choice: DifferenceChoice) => void;
}

const changeMarks = {
  up: { mark: '▲', text: 'better than the version before', cls: 'bg-emerald-50 text-emerald-800' },
  down: { mark: '▼', text: 'worse than the version before', cls: 'bg-red-50 text-red-800' },
};

function Cell({ cell, chosen, onClick }: { cell: AccuracyCell | null; chosen: boolean; onClick: () => void }) {
  if (!cell) return <td className="px-3 py-1.5 text-center text-slate-400">—</td>;
  const change = cell.change ? changeMarks[cell.change] : null;
  return (
    <td className={`p-0.5 text-center ${change?.cls ?? ''}`}>
      <button
        type="button"
        aria-pressed={chosen}
        onClick={onClick}
        className={`w-full rounded px-2 py-1 tabular-nums hover:bg-slate-100 ${chosen ? 'ring-2 ring-slate-500' : ''}`}
      >
        <span className="font-medium">{percent(cell.accuracy)}</span>{' '}
        <span className="text-xs text-slate-500">
          {cell.correct}/{cell.total}
        </span>
        {change && (
          <>
            {' '}
            <span aria-hidden="true">{change.mark}</span>
            <span className="sr-only">({change.text})</span>
          </>
        )}
      </button>
    </td>
  );
}

/** The fields × evaluated revisions table; a cell lists the differences of its field in that revision. */
export function AccuracyTableView({ table, chosen, onChoose }: AccuracyTableViewProps) {
  const isChosen = (index: number, field: string | null) =>
    chosen !== null && chosen.evaluationId === table.columns[index]?.evaluation.evaluation_id && chosen.field === field;
  const choose = (index: number, field: string | null) => {
    const column = table.columns[index];
    if (column) onChoose({ evaluationId: column.evaluation.evaluation_id, field });
  };
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200">
      <table aria-label="Accuracy by field" className="min-w-full text-sm text-slate-800">
        <thead className="bg-slate-50 text-xs text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2 text-left font-medium">
              Field
            </th>
            {table.columns.map(({ evaluation, report }) => (
              <th key={evaluation.evaluation_id} scope="col" className="w-36 px-3 py-2 text-center font-medium whitespace-nowrap">
                Version {evaluation.prompt_version}
                {(report ?? evaluation).status === 'running' && <span className="font-normal"> (running)</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {table.rows.map((row) => (
            <tr key={row.field}>
              <th scope="row" className="px-3 py-1.5 text-left font-mono text-xs font-normal">
                {row.field}
              </th>
              {row.cells.map((cell, index) => (
                <Cell
                  // biome-ignore lint/suspicious/noArrayIndexKey: a column's place is its identity
                  key={index}
                  cell={cell}
                  chosen={isChosen(index, row.field)}
                  onClick={() => choose(index, row.field)}
                />
              ))}
            </tr>
          ))}
          <tr className="border-t-2 border-slate-200 font-semibold">
            <th scope="row" className="px-3 py-1.5 text-left text-xs">
              Overall
            </th>
            {table.overall.map((cell, index) => (
              <Cell
                // biome-ignore lint/suspicious/noArrayIndexKey: a column's place is its identity
                key={index}
                cell={cell}
                chosen={isChosen(index, null)}
                onClick={() => choose(index, null)}
              />
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}
