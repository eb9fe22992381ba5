// Images as Bluesky takes them: at most `maxBytes` each (larger ones are re-encoded as JPEG, stepping the quality
// down and then the size, the way Bluesky's own app shrinks photos), with the aspect ratio of the upright image.
import sharp from 'sharp';
import { ProviderError } from '../adapter.ts';

/** The limit Bluesky's image embed has long had (newer lexicons allow 2,000,000 bytes; older PDSs do not). */
export const imageMaxBytes = 1_000_000;
/** The longest side Bluesky's app sends; larger images are reduced to it when they must be re-encoded anyway. */
const longestSide = 2000;
const qualities = [90, 80, 70, 60, 50];

export interface PreparedImage {
  bytes: Buffer;
  mimeType: string;
  aspectRatio: { width: number; height: number };
}

export async function prepareImage(bytes: Buffer, mimeType: string, maxBytes = imageMaxBytes): Promise<PreparedImage> {
  const metadata = await sharp(bytes).metadata();
  const upright = metadata.autoOrient;
  const aspectRatio = { width: upright.width, height: upright.height };
  if (bytes.length <= maxBytes) return { bytes, mimeType, aspectRatio };
  for (let side = longestSide; side >= 250; side = Math.round(side * 0.75)) {
    for (const quality of qualities) {
      const { data, info } = await sharp(bytes)
        .autoOrient()
        .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality, mozjpeg: true })
        .toBuffer({ resolveWithObject: true });
      if (data.length <= maxBytes) return { bytes: data, mimeType: 'image/jpeg', aspectRatio: { width: info.width, height: info.height } };
    }
  }
  throw new ProviderError('PROVIDER_REJECTED', `The image could not be brought under ${maxBytes} bytes for Bluesky.`, false);
}
