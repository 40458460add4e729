const count = new Intl.NumberFormat('en-US');
const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const smallUsd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumSignificantDigits: 2 });

export const formatCount = (n: number) => count.format(n);

/** Cents for what adds up to something; a couple of significant digits for what does not, rather than "$0.00". */
export const formatUsd = (n: number) => (n > 0 && n < 0.01 ? smallUsd.format(n) : usd.format(n));

const OPERATION_LABELS: Record<string, string> = {
  agent: 'Agent conversations',
  extraction: 'Prompt extractions',
};

/** What an operation of the usage ledger is, in words; an unknown one as it is named. */
export const operationLabel = (operation: string) => OPERATION_LABELS[operation] ?? operation;
