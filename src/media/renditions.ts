// Renditions: copies of a file in another format, made when it is processed and kept beside it, for networks that
// do not take the original's (Instagram takes JPEG images only). The library still shows and serves the original.

/** The image formats that have a JPEG rendition: every one but JPEG itself (a JPEG is its own). */
export const needsJpegRendition = (kind: string, format: string) => kind === 'image' && format !== 'jpeg';

/**
 * The URL of a file's JPEG rendition, from the file's signed URL (`/media-files/<id>/original?…`): signed alike, as
 * whoever may read a file may read its rendition. Networks that fetch media and take JPEG only are given this one.
 */
export function jpegUrlOf(fileUrl: string): string {
  const url = new URL(fileUrl);
  url.pathname = url.pathname.replace(/\/original$/, '/jpeg');
  return url.href;
}
