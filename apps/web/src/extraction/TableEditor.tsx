import { itemPath, keyPath } from '../citations/citationPaths.ts';
import { Button } from '../components/Button';
import { CitedValue } from './CitedValue';
import { emptyCell, type FieldDraft, newDraftId, type TableDraft } from './fieldDrafts';
import { GrowingTextArea } from './GrowingTextArea';
import { RemoveButton } from './ListEditor';
import { ScalarInput } from './ScalarInput';

interface TableEditorProps {
  name: string;
  /** The id of the element that names the table. */
  labelledBy: string;
  path: string;
  /** The table's citation path. */
  citePath: string;
  draft: TableDraft;
  /** The dot paths that have a problem. */
  invalidPaths: Set<string>;
  disabled: boolean;
  onChange: (draft: TableDraft) => void;
}

const CELL_JSON =
  'block w-full min-w-48 rounded-md border border-slate-300 bg-white px-2 py-1 font-mono text-xs text-slate-900 focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none aria-invalid:border-red-400';

/** A list of objects as a table: a column per key, a row per object; cells edited in place, rows added and removed. */
export function TableEditor({ name, labelledBy, path, citePath, draft, invalidPaths, disabled, onChange }: TableEditorProps) {
  const setRows = (rows: TableDraft['rows']) => onChange({ ...draft, rows });
  const setCell = (index: number, column: string, cell: FieldDraft) =>
    setRows(draft.rows.map((row, at) => (at === index ? { ...row, cells: { ...row.cells, [column]: cell } } : row)));
  const addRow = () =>
    setRows([
      ...draft.rows,
      { id: newDraftId(), cells: Object.fromEntries(draft.columns.map(([column, shape]) => [column, emptyCell(shape)])) },
    ]);

  return (
    <div className="space-y-1.5">
      {draft.rows.length === 0 ? (
        <p className="text-sm text-slate-500">{draft.emptyIsNull ? 'No value' : 'No rows'}</p>
      ) : (
        <div className="overflow-x-auto rounded-md border border-slate-200">
          <table aria-labelledby={labelledBy} className="min-w-full divide-y divide-slate-200 text-left text-sm">
            <thead className="bg-slate-50 text-xs font-medium text-slate-600">
              <tr>
                {draft.columns.map(([column]) => (
                  <th key={column} scope="col" className="px-2 py-1.5 font-mono font-medium whitespace-nowrap">
                    {column}
                  </th>
                ))}
                <th scope="col" className="w-8 px-1 py-1.5">
                  <span className="sr-only">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 bg-white">
              {draft.rows.map((row, index) => (
                <tr key={row.id} className="align-top">
                  {draft.columns.map(([column, shape]) => {
                    const cell = row.cells[column] ?? emptyCell(shape);
                    const label = `${column}, row ${index + 1}`;
                    const invalid = invalidPaths.has(`${path}.${index}.${column}`);
                    return (
                      <td key={column} className="px-1.5 py-1">
                        {cell.kind === 'scalar' ? (
                          <CitedValue path={keyPath(itemPath(citePath, index), column)}>
                            {(marksId) => (
                              <ScalarInput
                                draft={cell}
                                label={label}
                                describedBy={marksId}
                                invalid={invalid}
                                disabled={disabled}
                                compact
                                onChange={(next) => setCell(index, column, next)}
                              />
                            )}
                          </CitedValue>
                        ) : (
                          <GrowingTextArea
                            aria-label={`${label} (JSON)`}
                            aria-invalid={invalid ? true : undefined}
                            className={CELL_JSON}
                            spellCheck={false}
                            disabled={disabled}
                            value={cell.kind === 'json' ? cell.text : ''}
                            onChange={(event) => setCell(index, column, { kind: 'json', text: event.target.value })}
                          />
                        )}
                      </td>
                    );
                  })}
                  <td className="px-1 py-1">
                    <RemoveButton
                      label={`Remove row ${index + 1} of ${name}`}
                      disabled={disabled}
                      onClick={() => setRows(draft.rows.filter((_, at) => at !== index))}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Button
        variant="secondary"
        className="px-2.5 py-1 text-xs"
        aria-label={`Add a row to ${name}`}
        disabled={disabled}
        onClick={addRow}
      >
        + Add row
      </Button>
    </div>
  );
}
