import * as pdfjs from 'pdfjs-dist';
// The text layer's rules (transparent, positioned text over the canvas, selectable).
import 'pdfjs-dist/web/pdf_viewer.css';
import { type CSSProperties, type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useActiveCitation } from '../citations/activeCitation';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { useElementWidth } from '../lib/useElementWidth';
import { CitationOverlay } from './CitationOverlay';
import { ToolbarButton, ViewerToolbar, type Zoom, ZoomControls } from './ViewerToolbar';

// Vite bundles the worker as its own asset and gives its URL here.
pdfjs.GlobalWorkerOptions.workerSrc = new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url).toString();

/** Where the build put pdf.js's data (vite.config.ts): fonts PDFs name but do not embed, CMaps, image decoders. */
const pdfjsData = (folder: string) => `${import.meta.env.BASE_URL}pdfjs/${folder}/`;
const PDFJS_DATA = {
  standardFontDataUrl: pdfjsData('standard_fonts'),
  cMapUrl: pdfjsData('cmaps'),
  wasmUrl: pdfjsData('wasm'),
  iccUrl: pdfjsData('iccs'),
};

/** Room kept around the page inside the scrolling area, in CSS pixels. */
const PAGE_MARGIN = 32;

function PageInput({ page, pageCount, onPage }: { page: number; pageCount: number; onPage: (next: number) => void }) {
  const [draft, setDraft] = useState(String(page));
  useEffect(() => setDraft(String(page)), [page]);

  function commit() {
    const next = Number.parseInt(draft, 10);
    if (Number.isInteger(next) && next >= 1 && next <= pageCount) onPage(next);
    else setDraft(String(page));
  }

  return (
    <form
      className="flex items-center gap-1.5 text-sm text-slate-700"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        commit();
      }}
    >
      <span>Page</span>
      <input
        type="number"
        inputMode="numeric"
        aria-label="Page number"
        min={1}
        max={pageCount}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commit}
        className="h-7 w-12 rounded-md border border-slate-300 bg-white px-1.5 text-center text-sm tabular-nums focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none"
      />
      <span>of {pageCount}</span>
    </form>
  );
}

/** The variables pdf.js's text layer sizes itself and its text by (set by its own viewer on each page). */
function pageScaleVariables(scale: number | null): CSSProperties {
  const factor = scale ?? 1;
  return {
    '--scale-factor': factor,
    '--user-unit': 1,
    '--total-scale-factor': factor,
    '--scale-round-x': '1px',
    '--scale-round-y': '1px',
  } as CSSProperties;
}

/**
 * A PDF, one page at a time on a canvas, with page navigation and zoom. The page's text lies over
 * the canvas, transparent, so that it can be selected, copied and found with the browser's search.
 */
export default function PdfViewer({ url, toolbarStart }: { url: string; toolbarStart?: ReactNode }) {
  const [pdf, setPdf] = useState<pdfjs.PDFDocumentProxy | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const [pageNumber, setPageNumber] = useState(1);
  const [zoom, setZoom] = useState<Zoom>('fit');
  const [scale, setScale] = useState<number | null>(null);
  const [renderError, setRenderError] = useState<unknown>(null);
  /** A rendering of the page is under way (the one shown may be of an earlier size). */
  const [rendering, setRendering] = useState(true);
  /** The page and scale now on the canvas (the state above may be ahead of it while a rendering runs). */
  const [onCanvas, setOnCanvas] = useState<{ page: number; scale: number } | null>(null);
  const active = useActiveCitation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const textLayerRef = useRef<HTMLDivElement>(null);
  const areaWidth = useElementWidth(scrollRef);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt (Retry) loads the file again.
  useEffect(() => {
    let cancelled = false;
    setPdf(null);
    setLoadError(null);
    const task = pdfjs.getDocument({ url, withCredentials: true, ...PDFJS_DATA });
    task.promise.then(
      (loaded) => {
        if (!cancelled) {
          setPdf(loaded);
          setPageNumber(1);
        }
      },
      (error: unknown) => {
        if (!cancelled) setLoadError(error);
      },
    );
    return () => {
      cancelled = true;
      void task.destroy();
    };
  }, [url, attempt]);

  useEffect(() => {
    const canvas = canvasRef.current;
    const textContainer = textLayerRef.current;
    if (!pdf || !canvas || !textContainer || areaWidth === 0) return;
    let cancelled = false;
    let renderTask: pdfjs.RenderTask | null = null;
    let textLayer: pdfjs.TextLayer | null = null;
    setRenderError(null);
    setRendering(true);
    pdf
      .getPage(pageNumber)
      .then(async (page) => {
        if (cancelled) return;
        const natural = page.getViewport({ scale: 1 });
        const nextScale = zoom === 'fit' ? Math.max(0.1, (areaWidth - PAGE_MARGIN) / natural.width) : zoom;
        setScale(nextScale);
        const viewport = page.getViewport({ scale: nextScale });
        const outputScale = window.devicePixelRatio || 1;
        // Drawn aside and copied in when done, so that the page shown stays until its new rendering is ready
        // (resizing a panel re-renders at every step; clearing the visible canvas each time would flash).
        const drawn = document.createElement('canvas');
        drawn.width = Math.floor(viewport.width * outputScale);
        drawn.height = Math.floor(viewport.height * outputScale);
        renderTask = page.render({
          canvas: drawn,
          viewport,
          transform: outputScale === 1 ? undefined : [outputScale, 0, 0, outputScale, 0, 0],
        });
        await renderTask.promise;
        if (cancelled) return;
        canvas.width = drawn.width;
        canvas.height = drawn.height;
        canvas.style.width = `${Math.floor(viewport.width)}px`;
        canvas.style.height = `${Math.floor(viewport.height)}px`;
        canvas.getContext('2d')?.drawImage(drawn, 0, 0);
        setOnCanvas({ page: pageNumber, scale: nextScale });
        // The text is invisible, so laying it out in place cannot flash.
        textContainer.replaceChildren();
        textLayer = new pdfjs.TextLayer({ textContentSource: page.streamTextContent(), container: textContainer, viewport });
        await textLayer.render();
        if (cancelled) return;
        setRendering(false);
      })
      .catch((error: unknown) => {
        if (cancelled || error instanceof pdfjs.RenderingCancelledException) return;
        setRenderError(error);
        setRendering(false);
      });
    return () => {
      cancelled = true;
      renderTask?.cancel();
      textLayer?.cancel();
    };
  }, [pdf, pageNumber, zoom, areaWidth]);

  // A new page starts at its top.
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolling back is what a page change does.
  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
  }, [pageNumber]);

  // A field pointed at in the Extraction panel: turn to the page its value is on.
  useEffect(() => {
    const page = active?.citation.page;
    if (pdf && page && page >= 1 && page <= pdf.numPages) setPageNumber(page);
  }, [active, pdf]);

  const pageCount = pdf?.numPages ?? 0;
  const shownCitation = active && onCanvas?.page === pageNumber && active.citation.page === pageNumber ? active : null;

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ViewerToolbar start={toolbarStart}>
        {pdf && (
          <div className="flex items-center gap-1.5">
            <ToolbarButton label="Previous page" disabled={pageNumber <= 1} onClick={() => setPageNumber((page) => page - 1)}>
              ‹
            </ToolbarButton>
            <PageInput page={pageNumber} pageCount={pageCount} onPage={setPageNumber} />
            <ToolbarButton label="Next page" disabled={pageNumber >= pageCount} onClick={() => setPageNumber((page) => page + 1)}>
              ›
            </ToolbarButton>
          </div>
        )}
        {pdf && <ZoomControls zoom={zoom} scale={scale} onZoom={setZoom} />}
      </ViewerToolbar>
      <div ref={scrollRef} className="min-h-0 flex-1 overflow-auto bg-slate-100 [scrollbar-gutter:stable]">
        {loadError !== null ? (
          <div className="p-4">
            <ErrorAlert title="Could not open the PDF" error={loadError} onRetry={() => setAttempt((count) => count + 1)} />
          </div>
        ) : !pdf ? (
          <LoadingState label="Loading the PDF…" />
        ) : null}
        {renderError !== null && (
          <div className="p-4">
            <ErrorAlert title={`Could not show page ${pageNumber}`} error={renderError} />
          </div>
        )}
        <div className="flex min-w-min justify-center p-4" hidden={!pdf || renderError !== null}>
          <div className="relative" style={pageScaleVariables(scale)}>
            <canvas
              ref={canvasRef}
              role="img"
              aria-label={`Page ${pageNumber} of ${pageCount}`}
              aria-busy={rendering}
              className="block bg-white shadow-md ring-1 ring-slate-200"
            />
            <div ref={textLayerRef} className="textLayer" />
            {shownCitation && onCanvas && (
              <CitationOverlay active={shownCitation} scale={onCanvas.scale} scrollArea={scrollRef} />
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
