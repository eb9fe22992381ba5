// `targets[].settings`: each network's options, checked against the JSON Schema in its rules (served by
// GET /providers), with the schema's defaults filled in, so the worker always publishes with complete settings.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { detailsOf } from '../errors/schemaDetails.ts';
import type { ErrorDetail } from '../errors/appError.ts';
import type { ProviderRules, SettingsSchema } from './rules.ts';
import { linkSettingSchema } from '../links/setting.ts';

const ajv = new Ajv2020({ allErrors: true, useDefaults: true, strict: false });
addFormats.default(ajv);
const validators = new WeakMap<object, ValidateFunction>();

/** The compiled validator of a JSON Schema (2020-12), compiled once per schema object. */
export function validatorOf(schema: object): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

const withLinkSetting = new WeakMap<SettingsSchema, object>();

/** A network's settings with `links` beside them: every network's setting (src/links/setting.ts), so not repeated in each network's rules. */
function settingsSchemaOf(schema: SettingsSchema): object {
  let full = withLinkSetting.get(schema);
  if (!full) {
    full = { ...schema, properties: { ...schema.properties, links: linkSettingSchema } };
    withLinkSetting.set(schema, full);
  }
  return full;
}

/** The settings with defaults applied, or the details of what is wrong (fields relative to the target). */
export function checkSettings(
  rules: ProviderRules,
  settings: Record<string, unknown> | null | undefined,
): { values: Record<string, unknown>; details: ErrorDetail[] } {
  const values = structuredClone(settings ?? {});
  const validate = validatorOf(settingsSchemaOf(rules.settings));
  if (validate(values)) return { values, details: [] };
  const details = detailsOf(validate.errors ?? []).map((detail) => ({
    ...detail,
    field: `settings.${detail.field === 'body' ? '' : detail.field}`.replace(/\.$/, ''),
  }));
  return { values, details };
}
