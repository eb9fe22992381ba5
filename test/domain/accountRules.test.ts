// An account's stored rules against the catalog's (src/providers/catalog.ts): their `settingValues` may narrow a
// setting's allowed values (a LinkedIn page's visibility), never widen them nor take a setting away.
import { describe, expect, it } from 'vitest';
import { rulesForAccount } from '../../src/providers/catalog.ts';
import { linkedinPageRules, linkedinRules } from '../../src/providers/linkedin/network.ts';
import { checkTarget } from '../../src/posts/validation.ts';

const settingsRefused = (accountRules: unknown, settings: Record<string, unknown>) =>
  checkTarget({ provider: 'linkedin', accountStatus: 'ACTIVE', accountRules, placement: 'feed', caption: 'Hello', media: [], settings }).map(
    (violation) => violation.field,
  );

describe("an account's own rules for settings", () => {
  it('narrow a setting to the values both allow: a LinkedIn page has no CONNECTIONS, a member has', () => {
    expect(settingsRefused(linkedinPageRules, { visibility: 'CONNECTIONS' })).toEqual(['settings.visibility']);
    expect(settingsRefused(linkedinPageRules, { visibility: 'LOGGED_IN' })).toEqual([]);
    expect(settingsRefused(null, { visibility: 'CONNECTIONS' })).toEqual([]);
  });

  it('never widen a setting nor take one away: the values both allow, and settings stored whole (a Mastodon instance’s) count for nothing', () => {
    expect(settingsRefused({ settingValues: { visibility: ['PUBLIC', 'ANYONE'] } }, { visibility: 'ANYONE' })).toEqual(['settings.visibility']);
    expect(settingsRefused({ settingValues: { visibility: ['PUBLIC'] } }, { visibility: 'PUBLIC', firstComment: 'First!' })).toEqual([]);
    // Rules stored whole before the catalog took LOGGED_IN: the catalog's settings hold.
    const older = {
      ...linkedinRules,
      settings: { ...linkedinRules.settings, properties: { visibility: { type: 'string', enum: ['PUBLIC', 'CONNECTIONS'] } } },
    };
    expect(settingsRefused(older, { visibility: 'LOGGED_IN', firstComment: 'First!' })).toEqual([]);
  });

  it('give accounts narrowed alike one schema, so its validator is compiled once', () => {
    const page = rulesForAccount({ provider: 'linkedin', rules: structuredClone(linkedinPageRules) })!;
    const another = rulesForAccount({ provider: 'linkedin', rules: structuredClone(linkedinPageRules) })!;
    expect(page.settings).toBe(another.settings);
    expect(page.settings.properties.visibility!.enum).toEqual(['PUBLIC', 'LOGGED_IN']);
    expect(page).not.toHaveProperty('settingValues');
    expect(rulesForAccount({ provider: 'linkedin', rules: structuredClone(linkedinRules) })!.settings).toBe(linkedinRules.settings);
  });
});
