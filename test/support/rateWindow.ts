import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits until `leadMs` before the start of a calendar minute (the one after next when the next is too close) and
 * answers when that minute starts (epoch ms): for bursts that straddle a minute boundary.
 */
export async function shortlyBeforeNextMinute(leadMs: number): Promise<number> {
  const now = Date.now();
  let boundary = Math.ceil(now / 60_000) * 60_000;
  if (boundary - now < leadMs) boundary += 60_000;
  await sleep(boundary - leadMs - now);
  return boundary;
}

export async function until(epochMs: number): Promise<void> {
  const wait = epochMs - Date.now();
  if (wait > 0) await sleep(wait);
}
