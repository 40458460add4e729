import { Button } from '../../components/Button';
import { currentMonth, parseMonth, shiftMonth } from './months';

/** A month to look at: a step back, any month typed or picked, a step forward up to this month. */
export function MonthPicker({ month, onChange }: { month: string; onChange: (month: string) => void }) {
  const latest = currentMonth();
  return (
    <div className="flex items-center gap-2">
      <Button variant="secondary" aria-label="Previous month" onClick={() => onChange(shiftMonth(month, -1))}>
        ←
      </Button>
      <input
        type="month"
        aria-label="Month"
        value={month}
        max={latest}
        onChange={(event) => {
          // Clearing the field gives "": back to this month rather than nothing.
          if (event.target.value === '' || /^\d{4}-\d{2}$/.test(event.target.value)) onChange(parseMonth(event.target.value));
        }}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900"
      />
      <Button
        variant="secondary"
        aria-label="Next month"
        disabled={month >= latest}
        onClick={() => onChange(shiftMonth(month, 1))}
      >
        →
      </Button>
    </div>
  );
}
