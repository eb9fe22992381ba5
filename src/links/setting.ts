// The `links` setting of a target (`targets[].settings.links`), with a workspace default: UTM parameters added to the
// caption's links and, when `shorten` is on, each link published as `<PUBLIC_BASE_URL>/l/<code>`.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { detailsOf } from '../errors/schemaDetails.ts';
import type { ErrorDetail } from '../errors/appError.ts';

export const utmFields = ['source', 'medium', 'campaign'] as const;

export interface LinkSetting {
  shorten: boolean;
  utm: Partial<Record<(typeof utmFields)[number], string>>;
}

/** What `settings.links` and the workspace default accept, with defaults (every network's settings take it). */
export const linkSettingSchema = {
  type: 'object',
  description:
    'Links in the caption: `utm` parameters added to each http(s) link (parameters the link already has are kept), and with `shorten` each link published as <PUBLIC_BASE_URL>/l/<code>, a redirect that counts clicks. Absent: the workspace default (GET /v1/workspace/links) when the target is written.',
  properties: {
    shorten: { type: 'boolean', default: false },
    utm: {
      type: 'object',
      properties: Object.fromEntries(utmFields.map((field) => [field, { type: 'string', minLength: 1, maxLength: 200 }])),
      additionalProperties: false,
      default: {},
    },
  },
  additionalProperties: false,
} as const;

const validate = new Ajv2020({ allErrors: true, useDefaults: true, strict: false }).compile(linkSettingSchema);

/** The setting with defaults applied, or the details of what is wrong. */
export function checkLinkSetting(value: unknown): { setting: LinkSetting; details: ErrorDetail[] } {
  const setting = structuredClone(value ?? {});
  if (validate(setting)) return { setting: setting as LinkSetting, details: [] };
  return { setting: linksAsWritten, details: detailsOf(validate.errors ?? []) };
}

/** Links published as written: no UTM parameters, no short links. */
export const linksAsWritten: LinkSetting = { shorten: false, utm: {} };

/** A stored setting (checked when it was written): a target's `settings.links`, a workspace's default. */
export const storedLinkSetting = (value: unknown): LinkSetting | null => (value && typeof value === 'object' ? (value as LinkSetting) : null);

/** Whether the setting changes any link. */
export const changesLinks = (setting: LinkSetting) => setting.shorten || utmFields.some((field) => setting.utm[field] !== undefined);
