import { setThemeChoice, THEME_CHOICES, type ThemeChoice, useThemeChoice } from './theme';

const LABELS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** System, Light or Dark, as one row of radio buttons. */
export function ThemeChoices() {
  const choice = useThemeChoice();
  return (
    <fieldset className="flex rounded-md border border-slate-300 p-0.5">
      <legend className="sr-only">Theme</legend>
      {THEME_CHOICES.map((option) => (
        <label
          key={option}
          className={`flex-1 cursor-pointer rounded px-2 py-0.5 text-center text-sm has-focus-visible:outline-2 has-focus-visible:outline-slate-500 ${choice === option ? 'bg-slate-900 text-white' : 'text-slate-600 hover:text-slate-900'}`}
        >
          <input
            type="radio"
            name="theme"
            value={option}
            checked={choice === option}
            onChange={() => setThemeChoice(option)}
            className="sr-only"
          />
          {LABELS[option]}
        </label>
      ))}
    </fieldset>
  );
}
