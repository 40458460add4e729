/**
 * The forms of a value that count as the same when a value is looked for on a page: amounts
 * whatever their separators and currency ("$1,234.50", "1.234,50", "1 234,50" are 1234.5),
 * dates whatever their notation ("Nov 15 2012", "15.11.2012" are 2012-11-15), text whatever
 * its case and spacing.
 */

/** Lower case, compatibility forms folded (ligatures, non-breaking spaces), whitespace collapsed. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Letters and digits only, lower case: what two spellings of a word share ("Total:" and "total"). */
export function wordKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

const CURRENCY = String.raw`(?:[$€£¥₹₽₩₪₫฿]|US\$|(?:USD|EUR|GBP|JPY|CHF|CAD|AUD|NZD|CNY|HKD|SGD|INR|SEK|NOK|DKK|PLN|CZK|HUF|BRL|MXN|ZAR|TRY|KRW|RUB)\b)`;
const AMOUNT = new RegExp(
  String.raw`^([-+−]?)\(?\s*([-+−]?)\s*(?:${CURRENCY}\s*)?([-+−]?)\s*(\d[\d\s.,'’\u00a0\u202f]*)\s*(?:${CURRENCY})?\s*\)?(-?)$`,
  'u',
);

/**
 * The number an amount is written as, or null when the text is not one. The last of "." and ","
 * is the decimal mark when both occur; one alone is the decimal mark unless it groups thousands
 * ("1,234" is 1234, "1,5" is 1.5, "1.234.567" is 1234567); spaces and apostrophes group thousands.
 */
export function parseAmount(text: string): number | null {
  const trimmed = text.normalize('NFKC').trim();
  if (trimmed.length === 0 || trimmed.length > 40) return null;
  const m = AMOUNT.exec(trimmed);
  if (!m) return null;
  const negative = /[-−]/.test(`${m[1]}${m[2]}${m[3]}${m[5]}`) || (trimmed.startsWith('(') && trimmed.endsWith(')'));
  const raw = (m[4] ?? '').trim();
  // A space or an apostrophe groups thousands: each group after it starts with three digits.
  if (raw.split(/[\s'’\u00a0\u202f]+/).some((g, i) => i > 0 && !/^\d{3}(?!\d)/.test(g))) return null;
  const body = raw.replace(/[\s'’\u00a0\u202f]/g, '');
  if (!/^\d/.test(body) || !/\d$/.test(body)) return null;
  const lastDot = body.lastIndexOf('.');
  const lastComma = body.lastIndexOf(',');
  let digits: string;
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? '.' : ',';
    const group = decimal === '.' ? ',' : '.';
    const [whole = '', fraction = ''] = body.split(decimal);
    if (body.split(decimal).length !== 2 || fraction.includes(group)) return null;
    if (!groupedThousands(whole, group)) return null;
    digits = `${whole.split(group).join('')}.${fraction}`;
  } else if (lastDot >= 0 || lastComma >= 0) {
    const mark = lastDot >= 0 ? '.' : ',';
    const parts = body.split(mark);
    if (parts.length > 2) {
      if (!groupedThousands(body, mark)) return null;
      digits = parts.join('');
    } else if (mark === ',' && (parts[1] ?? '').length === 3) {
      digits = parts.join(''); // "1,234": thousands
    } else {
      digits = `${parts[0]}.${parts[1]}`;
    }
  } else {
    digits = body;
  }
  const value = Number(digits);
  if (!Number.isFinite(value)) return null;
  return negative ? -value : value;
}

function groupedThousands(whole: string, group: string): boolean {
  const groups = whole.split(group);
  return groups.every((g, i) => (i === 0 ? /^\d{1,3}$/.test(g) || groups.length === 1 : /^\d{3}$/.test(g)));
}

/** A canonical spelling of a number, so that 1234.5, 1234.50 and "1,234.50" share one key. */
export const amountKey = (value: number): string => `num:${Number(value.toFixed(6))}`;

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

function month(name: string): number | undefined {
  const lower = name.toLowerCase().replace(/\.$/, '');
  return MONTHS[lower] ?? MONTHS[lower.slice(0, 3)];
}

function iso(year: number, monthNumber: number, day: number): string | undefined {
  if (monthNumber < 1 || monthNumber > 12 || day < 1 || day > 31) return undefined;
  const date = new Date(Date.UTC(year, monthNumber - 1, day));
  if (date.getUTCMonth() !== monthNumber - 1) return undefined;
  return `${String(year).padStart(4, '0')}-${String(monthNumber).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const fullYear = (y: string): number => (y.length === 2 ? 2000 + Number(y) : Number(y));

/**
 * The calendar dates (YYYY-MM-DD) a text can mean: usually one, two for a numeric date whose
 * day and month could be either way round ("05/06/2012"), none for a text that is not a date.
 */
export function parseDates(text: string): string[] {
  const t = text
    .normalize('NFKC')
    .trim()
    .replace(/[,]/g, ' ')
    .replace(/(\d)(st|nd|rd|th)\b/gi, '$1')
    .replace(/\s+/g, ' ');
  if (t.length < 6 || t.length > 40) return [];
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(t);
  if (m) return defined([iso(Number(m[1]), Number(m[2]), Number(m[3]))]);
  m = /^(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})$/.exec(t);
  if (m) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    const year = fullYear(m[4]!);
    // Dots and dashes are day first; a slash is read month first when either way is possible.
    const dayFirst = iso(year, b, a);
    const monthFirst = iso(year, a, b);
    return unique(defined(m[2] === '/' ? [monthFirst, dayFirst] : [dayFirst, monthFirst]));
  }
  m = /^([A-Za-z]{3,9}\.?) (\d{1,2}) (\d{4})$/.exec(t);
  if (m) {
    const mo = month(m[1]!);
    return mo ? defined([iso(Number(m[3]), mo, Number(m[2]))]) : [];
  }
  m = /^(\d{1,2})[ -]([A-Za-z]{3,9}\.?)[ -](\d{4}|\d{2})$/.exec(t);
  if (m) {
    const mo = month(m[2]!);
    return mo ? defined([iso(fullYear(m[3]!), mo, Number(m[1]))]) : [];
  }
  return [];
}

const defined = (values: Array<string | undefined>): string[] => values.filter((v): v is string => v !== undefined);
const unique = (values: string[]): string[] => [...new Set(values)];

/** The keys under which a value is the same as another whatever its notation: its amount and its dates. */
export function valueKeys(value: string | number): string[] {
  if (typeof value === 'number') return Number.isFinite(value) ? [amountKey(value)] : [];
  const keys = parseDates(value).map((d) => `date:${d}`);
  const amount = parseAmount(value);
  if (amount !== null) keys.push(amountKey(amount));
  return keys;
}
