// A file the API answers (a CSV export) handed to the browser to save, under the name its Content-Disposition gives.
import { errorOf } from './auth.ts';

export async function saveAnswer(response: Response, fallbackName: string): Promise<void> {
  if (!response.ok) throw await errorOf(response);
  const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  // The browser has taken the file once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url));
}
