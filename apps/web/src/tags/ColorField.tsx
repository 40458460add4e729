import { useId } from 'react';

/** The color a new tag starts with: the indigo of the document chips. */
export const DEFAULT_TAG_COLOR = '#4f46e5';

/** The server also accepts #rgb, which a color input cannot show; it wants #rrggbb. */
function colorInputValue(color: string): string {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(color);
  return short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase() : color.toLowerCase();
}

interface ColorFieldProps {
  label: string;
  value: string;
  onChange: (color: string) => void;
}

/** A color picker with its hex value written out, since the swatch alone says little to screen readers. */
export function ColorField({ label, value, onChange }: ColorFieldProps) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="mt-1 flex items-center gap-2">
        <input
          id={id}
          type="color"
          value={colorInputValue(value)}
          onChange={(event) => onChange(event.target.value)}
          className="h-9 w-12 cursor-pointer rounded-md border border-slate-300 bg-white p-1"
        />
        <span className="w-16 font-mono text-sm text-slate-700">{value}</span>
      </div>
    </div>
  );
}
