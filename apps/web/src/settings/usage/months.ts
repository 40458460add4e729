/** Months as the usage API names them: YYYY-MM, in UTC as the monthly limit counts. */

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export const currentMonth = () => new Date().toISOString().slice(0, 7);

/** The month in a link, or this month when there is none or it is not a month. */
export function parseMonth(value: string | null): string {
  return value !== null && MONTH.test(value) ? value : currentMonth();
}

/** The month `delta` months after (or before) this one. */
export function shiftMonth(month: string, delta: number): string {
  const [year = 0, index = 1] = month.split('-').map(Number);
  return new Date(Date.UTC(year, index - 1 + delta, 1)).toISOString().slice(0, 7);
}

const monthName = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });

export function formatMonth(month: string): string {
  return monthName.format(new Date(`${month}-01T00:00:00Z`));
}
