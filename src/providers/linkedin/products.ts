// The products of the operator's LinkedIn app (LINKEDIN_PRODUCTS), which decide what connecting asks for. LinkedIn
// refuses an authorization that asks for a scope none of the app's products provides (`unauthorized_scope_error`,
// hybridauth/hybridauth#1296), and its developer portal requires the Community Management API to be the only product
// on its app (verbb/social-poster#52, trypostit/trypost#73): one app cannot have both sets, so the operator says which.
//   share                 "Sign In with LinkedIn using OpenID Connect" and "Share on LinkedIn", self-serve: the
//                         member only (openid profile email, w_member_social; who they are from /v2/userinfo)
//   community-management  "Community Management API", on application: the member and the pages they manage
//                         (r_basicprofile, w_member_social, the organization scopes; who they are from /v2/me:
//                         n8n-io/n8n#7451, "the OAuth options can't be mixed")
export const linkedinProductSets = ['share', 'community-management'] as const;
export type LinkedInProducts = (typeof linkedinProductSets)[number];

export const linkedinScopes: Record<LinkedInProducts, readonly string[]> = {
  share: ['openid', 'profile', 'email', 'w_member_social'],
  'community-management': ['r_basicprofile', 'w_member_social', 'w_organization_social', 'r_organization_social', 'rw_organization_admin'],
};

/** What publishing cannot do without, checked against the token answer's `scope` before any account is made. */
export const linkedinPublishingScopes: Record<LinkedInProducts, readonly string[]> = {
  share: ['w_member_social'],
  'community-management': ['w_member_social', 'w_organization_social', 'rw_organization_admin'],
};
