import { type DragEvent, useId, useState } from 'react';

interface UploadDropZoneProps {
  onFiles: (files: File[]) => void;
  /** The file input's accessible name. */
  label?: string;
  /** The kinds of file taken, said under the prompt. */
  hint?: string;
  /** What the file dialog offers, as the input's accept attribute: ".csv,.tsv". */
  accept?: string;
}

/** Takes files dropped on it or picked with the file dialog it opens when clicked. */
export function UploadDropZone({
  onFiles,
  label = 'Upload documents',
  hint = 'PDF, PNG, JPEG, TIFF or WebP images, text, Markdown and CSV files.',
  accept,
}: UploadDropZoneProps) {
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const [isDragOver, setIsDragOver] = useState(false);

  function handleDragOver(event: DragEvent<HTMLLabelElement>) {
    if (event.dataTransfer.types.includes('Files')) {
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
      setIsDragOver(true);
    }
  }

  function handleDragLeave(event: DragEvent<HTMLLabelElement>) {
    // Moving over the zone's own text fires dragleave on the zone; only leaving it counts.
    if (!(event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget))) {
      setIsDragOver(false);
    }
  }

  function handleDrop(event: DragEvent<HTMLLabelElement>) {
    event.preventDefault();
    setIsDragOver(false);
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) {
      onFiles(files);
    }
  }

  return (
    <label
      htmlFor={inputId}
      onDragOver={handleDragOver}
      onDragLeave={handleDragLeave}
      onDrop={handleDrop}
      className={`flex cursor-pointer flex-col items-center justify-center rounded-lg border-2 border-dashed px-6 py-8 text-center transition-colors has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-slate-900 ${
        isDragOver ? 'border-slate-700 bg-slate-100' : 'border-slate-300 bg-white hover:border-slate-400 hover:bg-slate-50'
      }`}
    >
      <input
        id={inputId}
        type="file"
        multiple
        aria-label={label}
        accept={accept}
        aria-describedby={hintId}
        className="sr-only"
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          // Clearing the input lets the same file be chosen again, e.g. after a failed upload.
          event.target.value = '';
          if (files.length > 0) {
            onFiles(files);
          }
        }}
      />
      <span className="text-sm font-medium text-slate-900">
        Drop files here or <span className="underline underline-offset-2">choose files</span>
      </span>
      <span id={hintId} className="mt-1 text-xs text-slate-500">
        {hint}
      </span>
    </label>
  );
}
