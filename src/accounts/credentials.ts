// The credentials a person gives to connect an account of a credential network (Bluesky, Telegram), checked the same
// way for every one against the fields the network declares (src/providers/<network>/network.ts), before the network
// is asked: a value missing, too long or of the wrong form is a 400 with `details` on the field.
import type { ErrorDetail } from '../errors/appError.ts';
import { detailsOf } from '../errors/schemaDetails.ts';
import { credentialsSchema, type CredentialField } from '../providers/network.ts';
import { validatorOf } from '../providers/settings.ts';

/** One schema object per network's fields, so that its compiled validator is kept. */
const schemas = new WeakMap<readonly CredentialField[], object>();

/** What is wrong with `values` for these fields; each detail's field is under `at` (`credentials.`, or '' for Bluesky's flat fields). */
export function credentialDetails(fields: readonly CredentialField[], values: unknown, at: string): ErrorDetail[] {
  let schema = schemas.get(fields);
  if (!schema) {
    schema = credentialsSchema(fields);
    schemas.set(fields, schema);
  }
  const validate = validatorOf(schema);
  if (validate(values)) return [];
  return detailsOf(validate.errors ?? []).map((detail) => ({ ...detail, field: detail.field === 'body' ? at.slice(0, -1) || 'body' : `${at}${detail.field}` }));
}
