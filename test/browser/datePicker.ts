// Typing a date and time into a react-aria DatePicker (the composer's and the post page's "Publish at"), segment by
// segment as a keyboard user does, in an en-US page (month, day, year, hour, minute, AM/PM).
import type { Page } from 'playwright-core';
import type { Temporal } from 'temporal-polyfill';

export async function typeDateTime(page: Page, label: RegExp, at: Temporal.PlainDateTime): Promise<void> {
  const picker = page.getByRole('group', { name: label });
  const segment = (name: string) => picker.getByRole('spinbutton', { name: new RegExp(`^${name}`, 'i') });
  const hour12 = at.hour % 12 === 0 ? 12 : at.hour % 12;
  const typed: [string, string][] = [
    ['month', String(at.month)],
    ['day', String(at.day)],
    ['year', String(at.year)],
    ['hour', String(hour12)],
    ['minute', String(at.minute)],
    ['AM/PM', at.hour < 12 ? 'A' : 'P'],
  ];
  for (const [name, keys] of typed) {
    await segment(name).focus();
    await page.keyboard.type(keys);
  }
}
