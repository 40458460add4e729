import { imageSize } from 'image-size';
import { TextExtractionError } from './types.ts';

const megapixels = (pixels: number) => `${Number((pixels / 1e6).toFixed(1))} megapixels`;

/**
 * The image's size from its header, refused past `maxPixels` before anything decodes it:
 * a few kilobytes of PNG can declare a picture that needs gigabytes of memory.
 */
export function checkImageSize(bytes: Uint8Array, maxPixels: number): { width: number; height: number } {
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch (error) {
    throw new TextExtractionError('malformed', `The image cannot be read (${(error as Error).message}); upload a valid copy.`, {
      cause: error,
    });
  }
  const { width, height } = size;
  if (!width || !height) throw new TextExtractionError('malformed', 'The image has no width or height; upload a valid copy.');
  const pixels = width * height;
  if (pixels > maxPixels) {
    throw new TextExtractionError(
      'too_large',
      `The image is ${width}×${height} pixels (${megapixels(pixels)}); the limit is ${megapixels(maxPixels)}. Scale it down and upload it again.`,
    );
  }
  return { width, height };
}
