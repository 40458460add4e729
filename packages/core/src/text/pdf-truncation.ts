/**
 * A complete PDF ends with %%EOF (readers allow some bytes after it). Without it pdf.js
 * rebuilds what it can, and poppler likewise, and either would quietly return the first
 * half of a cut-off upload.
 */
export function looksTruncated(bytes: Uint8Array): boolean {
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 2048))).toString('latin1');
  return !tail.includes('%%EOF');
}

export const TRUNCATED_PDF_MESSAGE = 'The PDF is truncated (it has no end-of-file marker); upload the complete file.';
