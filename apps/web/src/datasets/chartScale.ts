/** The value axis of the result chart: a range that includes zero, cut at round steps. */

/** 1, 2 or 5 times a power of ten: the step nearest above `raw`. */
function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

export interface ValueScale {
  min: number;
  max: number;
  ticks: number[];
}

/** About five round ticks from below the smallest value (or zero) to above the largest (or zero). */
export function valueScale(values: number[]): ValueScale {
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const step = niceStep((high - low) / 5 || 1);
  const min = Math.floor(low / step) * step;
  const max = Math.max(Math.ceil(high / step) * step, min + step);
  const ticks: number[] = [];
  for (let tick = min; tick <= max + step / 2; tick += step) ticks.push(Number(tick.toPrecision(12)));
  return { min, max, ticks };
}

const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 2 });

export const tickLabel = (value: number) => compact.format(value);
