// pdfjs-dist ships no types for its worker module; pdf.js needs only this export of it.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
