// The media library's files as the dashboard reads them from the graph (`MediaFile`).

export type MediaType = 'IMAGE' | 'VIDEO' | 'GIF';
export type MediaStatus = 'UPLOADING' | 'PROCESSING' | 'READY' | 'FAILED';

export interface MediaItem {
  id: string;
  filename: string;
  status: MediaStatus;
  type: MediaType | null;
  mimeType: string | null;
  size: number;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  altText: string | null;
  thumbnailUrl: string | null;
  error: { code: string; message: string } | null;
  createdAt: string;
}
