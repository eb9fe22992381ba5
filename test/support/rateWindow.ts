import { setTimeout as sleep } from 'node:timers/promises';

export async function until(epochMs: number): Promise<void> {
  const wait = epochMs - Date.now();
  if (wait > 0) await sleep(wait);
}
