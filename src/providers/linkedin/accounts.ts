// Connecting LinkedIn: one authorization reaches the member and, for an app with the Community Management API, each
// organization page they may post as, each its own account sharing the member's tokens. What is asked for depends on
// the app's products (LINKEDIN_PRODUCTS, products.ts).
//   Sign In with LinkedIn using OpenID Connect  https://learn.microsoft.com/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2
//     (scopes openid profile email; GET /v2/userinfo: `sub` is the member, urn:li:person:<sub>)
//   Profile API  https://learn.microsoft.com/linkedin/shared/integrations/people/profile-api (r_basicprofile, which
//     Community Management apps have instead: GET /v2/me {id, localizedFirstName, localizedLastName, vanityName})
//   Authorization code flow  https://learn.microsoft.com/linkedin/shared/authentication/authorization-code-flow
//     (<auth>/v2/authorization, <auth>/v2/accessToken with the secret in the form; PKCE is for native apps only:
//     https://learn.microsoft.com/linkedin/shared/authentication/authorization-code-flow-native)
//   Refresh tokens  https://learn.microsoft.com/linkedin/shared/authentication/programmatic-refresh-tokens
//     (standard refresh_token grant, for apps LinkedIn enabled; access tokens last 60 days)
//   Organization Access Control  https://learn.microsoft.com/linkedin/marketing/community-management/organizations/organization-access-control-by-role
//     (GET /rest/organizationAcls?q=roleAssignee&state=APPROVED: every role of the member; ADMINISTRATOR,
//     CONTENT_ADMINISTRATOR and DIRECT_SPONSORED_CONTENT_POSTER may post as the page, ANALYST and the others not)
//   Organization Lookup  https://learn.microsoft.com/linkedin/marketing/community-management/organizations/organization-lookup-api
//     (GET /rest/organizations/{id}: localizedName, vanityName)
import type { GivenApp } from '../network.ts';
import { ProviderError, type ProviderTokens, type RemoteIdentity } from '../adapter.ts';
import type { OAuthProfile } from '../kit/oauthLink.ts';
import type { LinkedInApi } from './api.ts';
import { linkedinPublishingScopes, linkedinScopes, type LinkedInProducts } from './products.ts';

/** The page roles that may post as the organization (Posts API, w_organization_social; postiz linkedin.page.provider.ts). */
const postingRoles = new Set(['ADMINISTRATOR', 'CONTENT_ADMINISTRATOR', 'DIRECT_SPONSORED_CONTENT_POSTER']);

interface UserInfo {
  sub?: string;
  name?: string;
  email?: string;
  picture?: string;
}

interface Me {
  id?: string;
  localizedFirstName?: string;
  localizedLastName?: string;
  vanityName?: string;
}

interface OrganizationAcls {
  elements?: { organization?: string; role?: string; state?: string }[];
}

interface Organization {
  id?: number;
  localizedName?: string;
  vanityName?: string;
  logoV2?: unknown;
}

export function linkedinProfile(api: LinkedInApi, products: LinkedInProducts): OAuthProfile {
  const pagesToo = products === 'community-management';
  return {
    network: 'LinkedIn',
    server: (app: GivenApp) => ({
      authorizationEndpoint: `${app.authBaseUrl}/v2/authorization`,
      tokenEndpoint: `${app.authBaseUrl}/v2/accessToken`,
      scopes: [...linkedinScopes[products]],
      pkce: false,
      clientAuthentication: 'post',
    }),
    identities: async (tokens) => {
      const member = pagesToo ? await basicProfileOf(api, tokens) : await memberOf(api, tokens);
      const pages = pagesToo ? await organizationsOf(api, tokens) : [];
      return [member, ...pages].map((identity) => ({ identity, tokens }));
    },
    refresh: 'standard',
    requiredScopes: {
      scopes: linkedinPublishingScopes[products],
      advice: 'connect again and allow every permission asked for; an app without these products (LINKEDIN_PRODUCTS) cannot be given them',
    },
  };
}

/** The member as the Profile API names them (r_basicprofile: Community Management apps). */
async function basicProfileOf(api: LinkedInApi, tokens: ProviderTokens): Promise<RemoteIdentity> {
  const { body } = await api.send<Me>({ method: 'GET', path: '/v2/me', accessToken: tokens.accessToken });
  if (!body.id) throw new ProviderError('PROVIDER_UNAVAILABLE', 'LinkedIn answered GET /v2/me without the member (id).', true);
  const name = [body.localizedFirstName, body.localizedLastName].filter(Boolean).join(' ') || body.vanityName || body.id;
  return { remoteId: `urn:li:person:${body.id}`, username: body.vanityName || name, displayName: name, avatarUrl: null };
}

/** The member as OpenID Connect names them (openid profile email: Sign In with LinkedIn). */
async function memberOf(api: LinkedInApi, tokens: ProviderTokens): Promise<RemoteIdentity> {
  const { body } = await api.send<UserInfo>({ method: 'GET', path: '/v2/userinfo', accessToken: tokens.accessToken });
  if (!body.sub) throw new ProviderError('PROVIDER_UNAVAILABLE', 'LinkedIn answered GET /v2/userinfo without the member (sub).', true);
  const name = body.name || body.email || body.sub;
  return { remoteId: `urn:li:person:${body.sub}`, username: body.email || name, displayName: name, avatarUrl: body.picture ?? null };
}

/** The pages the member may post as (a role that may), each an account posting as the organization. */
async function organizationsOf(api: LinkedInApi, tokens: ProviderTokens): Promise<RemoteIdentity[]> {
  const { body } = await api.send<OrganizationAcls>({
    method: 'GET',
    path: '/rest/organizationAcls?q=roleAssignee&state=APPROVED&count=100',
    accessToken: tokens.accessToken,
  });
  const posting = (body.elements ?? []).filter((acl) => postingRoles.has(acl.role ?? '') && acl.organization?.startsWith('urn:li:organization:'));
  const urns = [...new Set(posting.map((acl) => acl.organization!))];
  return Promise.all(
    urns.map(async (urn) => {
      const id = urn.slice('urn:li:organization:'.length);
      const { body: page } = await api.send<Organization>({
        method: 'GET',
        path: `/rest/organizations/${encodeURIComponent(id)}`,
        accessToken: tokens.accessToken,
      });
      const name = page.localizedName || page.vanityName || urn;
      return { remoteId: urn, username: page.vanityName || id, displayName: name, avatarUrl: null };
    }),
  );
}
