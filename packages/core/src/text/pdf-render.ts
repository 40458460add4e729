import { type Canvas, createCanvas } from '@napi-rs/canvas';
import type { PdfPage } from './pdf-document.ts';

/** The page drawn at `scale` pixels per PDF point, on white (as a scanner sees paper). */
async function drawPage(page: PdfPage, scale: number): Promise<Canvas> {
  const viewport = page.getViewport({ scale });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvas, canvasContext: context, viewport }).promise;
  return canvas;
}

/** The page as a PNG. */
export async function renderPdfPage(page: PdfPage, scale: number): Promise<Uint8Array> {
  return new Uint8Array(await (await drawPage(page, scale)).encode('png'));
}

/**
 * The page as an 8-bit greyscale PGM, the image OCR gets. Measured on an A4 page at 200 DPI:
 * it takes a third of the time of a PNG to make, and tesseract reads it in 0.22 s instead
 * of 0.37 s, as it has nothing to decompress.
 */
export async function renderPdfPageForOcr(page: PdfPage, scale: number): Promise<Uint8Array> {
  const canvas = await drawPage(page, scale);
  const rgba = canvas.data();
  const header = Buffer.from(`P5\n${canvas.width} ${canvas.height}\n255\n`, 'latin1');
  const pgm = new Uint8Array(header.length + canvas.width * canvas.height);
  pgm.set(header);
  // ITU-R BT.601 luma in integer arithmetic; the canvas is opaque, so alpha plays no part.
  for (let from = 0, to = header.length; from < rgba.length; from += 4, to++) {
    pgm[to] = (rgba[from]! * 77 + rgba[from + 1]! * 150 + rgba[from + 2]! * 29) >> 8;
  }
  return pgm;
}
