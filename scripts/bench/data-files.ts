import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/**
 * The data benchmark's CSV files: orders and the customers who placed them, the same bytes in
 * every run (a seeded generator), as an export from a shop system would look.
 */

export const ORDERS = 1_000_000;
export const CUSTOMERS = 50_000;

/** mulberry32: a small seeded generator, so every run writes the same files. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(next: () => number, values: readonly T[]): T => values[Math.floor(next() * values.length)]!;

function weighted(next: () => number, weights: Record<string, number>): string {
  const total = Object.values(weights).reduce((a, b) => a + b, 0);
  let r = next() * total;
  for (const [value, weight] of Object.entries(weights)) {
    r -= weight;
    if (r < 0) return value;
  }
  return Object.keys(weights)[0]!;
}

const DAY_MS = 86_400_000;
const dateAfter = (start: string, days: number) => new Date(Date.parse(start) + days * DAY_MS).toISOString().slice(0, 10);

const COUNTRIES = [
  'DE',
  'FR',
  'IT',
  'ES',
  'NL',
  'BE',
  'AT',
  'CH',
  'PL',
  'SE',
  'DK',
  'NO',
  'FI',
  'IE',
  'PT',
  'CZ',
  'GB',
  'US',
  'CA',
  'JP',
];
const SEGMENTS = ['consumer', 'business', 'enterprise'];
const CHANNELS = ['web', 'store', 'phone'];
const STATUSES = { shipped: 50, delivered: 30, returned: 8, cancelled: 7, pending: 5 };

/** Writes `rows` lines made by `line` (after a header), 10,000 at a time. */
async function writeCsv(path: string, header: string, rows: number, line: (i: number) => string): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  const write = async (text: string) => {
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`${header}\n`);
  for (let start = 0; start < rows; start += 10_000) {
    const lines: string[] = [];
    for (let i = start; i < Math.min(rows, start + 10_000); i++) lines.push(line(i));
    await write(`${lines.join('\n')}\n`);
  }
  out.end();
  await once(out, 'close');
  return bytes;
}

/** `orders.csv` (ORDERS rows) and `customers.csv` (CUSTOMERS rows) at these paths; answers their sizes in bytes. */
export async function writeDataFiles(ordersPath: string, customersPath: string): Promise<{ orders: number; customers: number }> {
  const next = random(20_240_117);
  const customers = await writeCsv(customersPath, 'customer_id,name,country,segment,signup_date', CUSTOMERS, (i) =>
    [
      i + 1,
      `Customer ${i + 1}`,
      pick(next, COUNTRIES),
      pick(next, SEGMENTS),
      dateAfter('2019-01-01', Math.floor(next() * 1800)),
    ].join(','),
  );
  const orders = await writeCsv(ordersPath, 'order_id,customer_id,order_date,amount,quantity,status,channel', ORDERS, (i) =>
    [
      i + 1,
      1 + Math.floor(next() * CUSTOMERS),
      dateAfter('2023-01-01', Math.floor(next() * 730)),
      (5 + next() * 1995).toFixed(2),
      1 + Math.floor(next() * 10),
      weighted(next, STATUSES),
      pick(next, CHANNELS),
    ].join(','),
  );
  return { orders, customers };
}
