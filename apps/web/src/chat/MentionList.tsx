import type { MentionChoice } from './mentions';

interface MentionListProps {
  id: string;
  choices: MentionChoice[];
  active: number;
  loading: boolean;
  onChoose: (choice: MentionChoice) => void;
  onHover: (index: number) => void;
}

export const optionId = (listId: string, index: number) => `${listId}-option-${index}`;

/** The schemas, prompts and tags matching what follows the @, to choose with the arrow keys and Enter. */
export function MentionList({ id, choices, active, loading, onChoose, onHover }: MentionListProps) {
  return (
    <div
      id={id}
      role="listbox"
      aria-label="Mention"
      className="absolute bottom-full left-0 z-20 mb-1 max-h-64 w-full max-w-sm overflow-y-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg"
    >
      {choices.length === 0 && (
        <p className="px-3 py-1.5 text-xs text-slate-500">{loading ? 'Loading…' : 'No schema, prompt or tag matches.'}</p>
      )}
      {choices.map((choice, index) => (
        <div
          key={`${choice.type}:${choice.id}`}
          id={optionId(id, index)}
          role="option"
          tabIndex={-1}
          aria-selected={index === active}
          onMouseDown={(event) => {
            // Keeps the focus in the message while choosing.
            event.preventDefault();
            onChoose(choice);
          }}
          onMouseEnter={() => onHover(index)}
          onKeyDown={() => undefined}
          className={`flex cursor-pointer items-center justify-between gap-3 px-3 py-1.5 ${index === active ? 'bg-slate-100' : ''}`}
        >
          <span className="truncate text-slate-900">{choice.label}</span>
          <span className="shrink-0 text-xs text-slate-500">{choice.detail}</span>
        </div>
      ))}
    </div>
  );
}
