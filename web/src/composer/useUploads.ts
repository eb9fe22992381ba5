// Files dropped onto the composer, uploaded to the media library one beside the other (by the media library's own
// uploader, web/src/media/upload.ts) with each one's progress; each is handed on once it is ready. A refusal stays
// by its file until the person dismisses it. Uploads still running stop when the composer goes.
import { useEffect, useRef, useState } from 'react';
import { useClient } from 'urql';
import { ApiError } from '../api/auth.ts';
import { uploadMedia, type UploadProgress } from '../media/upload.ts';
import type { MediaItem } from '../media/types.ts';

export interface Upload {
  key: number;
  filename: string;
  progress: UploadProgress;
  error: ApiError | null;
}

export function useUploads(onUploaded: (media: MediaItem) => void) {
  const client = useClient();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const running = useRef(new Set<AbortController>());
  const counter = useRef(0);
  useEffect(
    () => () => {
      for (const controller of running.current) controller.abort();
    },
    [],
  );

  const update = (key: number, change: Partial<Upload>) => setUploads((all) => all.map((upload) => (upload.key === key ? { ...upload, ...change } : upload)));
  const dismiss = (key: number) => setUploads((all) => all.filter((upload) => upload.key !== key));

  async function upload(file: File) {
    const key = ++counter.current;
    const controller = new AbortController();
    running.current.add(controller);
    setUploads((all) => [...all, { key, filename: file.name, progress: { phase: 'sending', sentBytes: 0, totalBytes: file.size }, error: null }]);
    try {
      const media = await uploadMedia(client, file, (progress) => update(key, { progress }), controller.signal);
      dismiss(key);
      onUploaded(media);
    } catch (reason) {
      if (!controller.signal.aborted) update(key, { error: reason instanceof ApiError ? reason : new ApiError('INTERNAL', String(reason)) });
    } finally {
      running.current.delete(controller);
    }
  }

  return { uploads, start: (files: readonly File[]) => files.forEach((file) => void upload(file)), dismiss };
}
