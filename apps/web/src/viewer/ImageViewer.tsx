import { type ReactNode, useRef, useState } from 'react';
import { useActiveCitation } from '../citations/activeCitation';
import { imageScale } from '../citations/boxGeometry.ts';
import { useElementWidth } from '../lib/useElementWidth';
import { CitationOverlay } from './CitationOverlay';
import { ViewerToolbar, type Zoom, ZoomControls } from './ViewerToolbar';

const IMAGE_MARGIN = 32;

/** An image, fitted to the panel's width or zoomed. */
export function ImageViewer({ url, name, toolbarStart }: { url: string; name: string; toolbarStart?: ReactNode }) {
  const [zoom, setZoom] = useState<Zoom>('fit');
  const [naturalWidth, setNaturalWidth] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  const scrollRef = useRef<HTMLDivElement>(null);
  const areaWidth = useElementWidth(scrollRef);

  const fitScale = naturalWidth && areaWidth > 0 ? Math.max(0.05, (areaWidth - IMAGE_MARGIN) / naturalWidth) : null;
  const scale = zoom === 'fit' ? fitScale : zoom;
  const width = naturalWidth && scale ? Math.round(naturalWidth * scale) : undefined;
  const active = useActiveCitation();
  const boxScale = naturalWidth && width ? imageScale(naturalWidth, width) : null;
  // An image is one page.
  const shownCitation = active?.citation.page === 1 ? active : null;

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ViewerToolbar start={toolbarStart}>
        <ZoomControls zoom={zoom} scale={scale} onZoom={setZoom} />
      </ViewerToolbar>
      <div ref={scrollRef} className="min-h-0 flex-1 overflow-auto bg-slate-100 [scrollbar-gutter:stable]">
        {failed ? (
          <p role="alert" className="m-4 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
            Could not load the image.
          </p>
        ) : (
          <div className="flex min-w-min justify-center p-4">
            <div className="relative">
              <img
                src={url}
                alt={name}
                style={{ width, maxWidth: 'none' }}
                onLoad={(event) => setNaturalWidth(event.currentTarget.naturalWidth)}
                onError={() => setFailed(true)}
                className="block h-auto bg-white shadow-md ring-1 ring-slate-200"
              />
              {shownCitation && boxScale && <CitationOverlay active={shownCitation} scale={boxScale} scrollArea={scrollRef} />}
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
