/**
 * Finding a cited field in the Extraction panel from the viewer: each cited value's wrapper
 * carries its result and path as data attributes (`citedFieldAttributes`).
 */

export function citedFieldAttributes(source: string, path: string) {
  return { 'data-citation-source': source, 'data-citation-path': path };
}

/** Moves the keyboard focus to the field's input (which scrolls it into view); false when it is not on the page. */
export function focusCitedField(source: string, path: string): boolean {
  const selector = `[data-citation-source="${CSS.escape(source)}"][data-citation-path="${CSS.escape(path)}"]`;
  const input = document.querySelector(selector)?.querySelector<HTMLElement>('input, select, textarea');
  if (!input) return false;
  input.focus();
  return true;
}
