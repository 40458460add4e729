const engineLabels: Record<string, string> = {
  pdf_text: 'PDF text layer',
  tesseract_cli: 'OCR (Tesseract)',
  tesseract_js: 'OCR (Tesseract.js)',
  plain: 'Text of the file',
};

/** A readable name for the engine that produced a page's text; engines added later show as they are. */
export function engineLabel(engine: string): string {
  return engineLabels[engine] ?? engine;
}
