/**
 * The `LinkedIn-Version` (YYYYMM) asked for where LINKEDIN_VERSION does not say: LinkedIn serves each version of
 * its API for a year after its release (https://learn.microsoft.com/linkedin/marketing/versioning).
 */
export const defaultLinkedInVersion = '202610';
