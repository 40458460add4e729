import { itemPath } from '../citations/citationPaths.ts';
import { Button } from '../components/Button';
import { CitedValue } from './CitedValue';
import { emptyScalar, type ListDraft, newDraftId } from './fieldDrafts';
import { ScalarInput } from './ScalarInput';

interface ListEditorProps {
  name: string;
  path: string;
  /** The list's citation path. */
  citePath: string;
  draft: ListDraft;
  /** The dot paths that have a problem. */
  invalidPaths: Set<string>;
  disabled: boolean;
  onChange: (draft: ListDraft) => void;
}

/** The ✕ that removes an item of a list or a row of a table. */
export function RemoveButton({ label, disabled, onClick }: { label: string; disabled: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      className="inline-flex size-7 shrink-0 items-center justify-center rounded-md text-sm text-slate-500 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-500 disabled:cursor-not-allowed disabled:opacity-40"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
    >
      ✕
    </button>
  );
}

/** A list of texts, numbers, dates or yes/no values: one input per item, items added and removed. */
export function ListEditor({ name, path, citePath, draft, invalidPaths, disabled, onChange }: ListEditorProps) {
  const setItems = (items: ListDraft['items']) => onChange({ ...draft, items });
  return (
    <div className="space-y-1.5">
      {draft.items.length === 0 && <p className="text-sm text-slate-500">{draft.emptyIsNull ? 'No value' : 'No items'}</p>}
      {draft.items.length > 0 && (
        <ol className="space-y-1.5">
          {draft.items.map((item, index) => (
            <li key={item.id} className="flex items-center gap-1.5">
              <CitedValue path={itemPath(citePath, index)} className="min-w-0 flex-1">
                {(marksId) => (
                  <ScalarInput
                    draft={item.draft}
                    label={`${name} item ${index + 1}`}
                    describedBy={marksId}
                    invalid={invalidPaths.has(`${path}.${index}`)}
                    disabled={disabled}
                    compact
                    onChange={(next) =>
                      setItems(draft.items.map((other, at) => (at === index ? { ...other, draft: next } : other)))
                    }
                  />
                )}
              </CitedValue>
              <RemoveButton
                label={`Remove ${name} item ${index + 1}`}
                disabled={disabled}
                onClick={() => setItems(draft.items.filter((_, at) => at !== index))}
              />
            </li>
          ))}
        </ol>
      )}
      <Button
        variant="secondary"
        className="px-2.5 py-1 text-xs"
        aria-label={`Add an item to ${name}`}
        disabled={disabled}
        onClick={() => setItems([...draft.items, { id: newDraftId(), draft: emptyScalar(draft.item) }])}
      >
        + Add item
      </Button>
    </div>
  );
}
