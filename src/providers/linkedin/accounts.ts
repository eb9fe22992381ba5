// Connecting LinkedIn: one authorization reaches the member and each organization page they administer, each its
// own account sharing the member's tokens.
//   Sign In with LinkedIn using OpenID Connect  https://learn.microsoft.com/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2
//     (scopes openid profile email; GET /v2/userinfo: `sub` is the member, urn:li:person:<sub>)
//   Authorization code flow  https://learn.microsoft.com/linkedin/shared/authentication/authorization-code-flow
//     (<auth>/v2/authorization, <auth>/v2/accessToken with the secret in the form; PKCE is for native apps only:
//     https://learn.microsoft.com/linkedin/shared/authentication/authorization-code-flow-native)
//   Refresh tokens  https://learn.microsoft.com/linkedin/shared/authentication/programmatic-refresh-tokens
//     (standard refresh_token grant, for apps LinkedIn enabled; access tokens last 60 days)
//   Organization Access Control  https://learn.microsoft.com/linkedin/marketing/community-management/organizations/organization-access-control-by-role
//     (GET /rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED)
//   Organization Lookup  https://learn.microsoft.com/linkedin/marketing/community-management/organizations/organization-lookup-api
//     (GET /rest/organizations/{id}: localizedName, vanityName)
import type { GivenApp } from '../../config.ts';
import { ProviderError, type ProviderTokens, type RemoteIdentity } from '../adapter.ts';
import { grantedScopes, type OAuthProfile } from '../kit/oauthLink.ts';
import type { LinkedInApi } from './api.ts';

/** The member's identity and posting as them; their pages' posts, statistics and roles. */
export const linkedinScopes = ['openid', 'profile', 'email', 'w_member_social', 'w_organization_social', 'r_organization_social', 'rw_organization_admin'];

interface UserInfo {
  sub?: string;
  name?: string;
  email?: string;
  picture?: string;
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

export function linkedinProfile(api: LinkedInApi): OAuthProfile {
  return {
    network: 'LinkedIn',
    server: (app: GivenApp) => ({
      authorizationEndpoint: `${app.authBaseUrl}/v2/authorization`,
      tokenEndpoint: `${app.authBaseUrl}/v2/accessToken`,
      scopes: linkedinScopes,
      pkce: false,
      clientAuthentication: 'post',
    }),
    identities: async (tokens) => {
      const member = await memberOf(api, tokens);
      const pages = grantedScopes(tokens)?.has('w_organization_social') ? await organizationsOf(api, tokens) : [];
      return [member, ...pages].map((identity) => ({ identity, tokens }));
    },
    refresh: 'standard',
  };
}

async function memberOf(api: LinkedInApi, tokens: ProviderTokens): Promise<RemoteIdentity> {
  const { body } = await api.send<UserInfo>({ method: 'GET', path: '/v2/userinfo', accessToken: tokens.accessToken });
  if (!body.sub) throw new ProviderError('PROVIDER_UNAVAILABLE', 'LinkedIn answered GET /v2/userinfo without the member (sub).', true);
  const name = body.name || body.email || body.sub;
  return { remoteId: `urn:li:person:${body.sub}`, username: body.email || name, displayName: name, avatarUrl: body.picture ?? null };
}

/** The pages the member administers, each an account posting as the organization. */
async function organizationsOf(api: LinkedInApi, tokens: ProviderTokens): Promise<RemoteIdentity[]> {
  const { body } = await api.send<OrganizationAcls>({
    method: 'GET',
    path: '/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED&count=100',
    accessToken: tokens.accessToken,
  });
  const urns = [...new Set((body.elements ?? []).flatMap((acl) => (acl.organization?.startsWith('urn:li:organization:') ? [acl.organization] : [])))];
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
