import { setTimeout as sleep } from 'node:timers/promises';

/** Rate-limit windows are calendar minutes: start a counting test early in one, so it cannot straddle two. */
export async function startOfFreshWindow(neededSeconds: number): Promise<void> {
  const second = new Date().getUTCSeconds() + new Date().getUTCMilliseconds() / 1000;
  if (second > 60 - neededSeconds) await sleep((60 - second + 0.2) * 1000);
}
