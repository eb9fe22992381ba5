// OAuth 2.1 for MCP clients, as the MCP authorization specification (2025-06-18 and later) describes: this service
// is both the protected resource (/mcp) and its authorization server. The MCP SDK's express handlers speak the wire
// format (parameter checks, PKCE S256 verification, OAuth error answers, CORS for browser clients); the storage,
// the rules and the consent live in the domain (src/access/connectedApps.ts) and the dashboard (/apps/authorize).
//
// Offered where PUBLIC_BASE_URL is https, or http to a loopback host (a developer's machine): an issuer must be
// https (RFC 8414 §2), and tokens sent over plain http to another host could be read on the way.
import express, { Router } from 'express';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import { CustomOAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthClientInformationFull, OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import {
  challengeForCode,
  exchangeCode,
  exchangeRefreshToken,
  findAppClient,
  OAuthRefusal,
  registerAppClient,
  revokeAppToken,
  startAppAuthorization,
  type ClientRegistration,
} from '../src/access/connectedApps.ts';
import { scopes } from '../src/access/scopes.ts';
import type { Services } from '../src/runtime.ts';
import { contextOf } from './requestContext.ts';

export const consentPagePath = '/apps/authorize';
const protectedResourcePath = '/.well-known/oauth-protected-resource';

export interface McpAuthorization {
  /** The `WWW-Authenticate` of a 401 on /mcp: where a client finds how to sign in (RFC 9728 §5.1). */
  challenge: string;
  issuer: string;
}

/** Null where OAuth is not offered (PUBLIC_BASE_URL plain http to a host that is not this machine). */
export function mcpAuthorization(publicBaseUrl: string): McpAuthorization | null {
  const base = new URL(publicBaseUrl);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(base.hostname);
  if (base.protocol !== 'https:' && !loopback) return null;
  return { challenge: `Bearer resource_metadata="${publicBaseUrl}${protectedResourcePath}/mcp"`, issuer: publicBaseUrl };
}

/** A domain refusal in OAuth's error shape (the SDK's handlers answer it as JSON, or on the redirect URI). */
async function inOAuthTerms<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof OAuthRefusal) throw new CustomOAuthError(error.error, error.description);
    throw error;
  }
}

function provider(services: Services, mcpResource: string): OAuthServerProvider {
  const { db, config } = services;
  return {
    clientsStore: {
      getClient: (clientId) => findAppClient(db, clientId) as Promise<OAuthClientInformationFull | undefined>,
      registerClient: (client) => inOAuthTerms(() => registerAppClient(db, client as ClientRegistration)) as Promise<OAuthClientInformationFull>,
    },
    async authorize(client, params, res) {
      const { requestId } = await inOAuthTerms(() =>
        startAppAuthorization(db, {
          clientId: client.client_id,
          redirectUri: params.redirectUri,
          codeChallenge: params.codeChallenge,
          ...(params.state === undefined ? {} : { state: params.state }),
          scopes: params.scopes ?? [],
          ...(params.resource ? { resource: params.resource.href } : {}),
          mcpResource,
        }),
      );
      res.redirect(302, `${config.publicBaseUrl}${consentPagePath}?request=${requestId}`);
    },
    challengeForAuthorizationCode: (client, code) => inOAuthTerms(() => challengeForCode(db, client.client_id, code)),
    exchangeAuthorizationCode: (client, code, _verifier, redirectUri, resource) =>
      inOAuthTerms(() =>
        exchangeCode(db, {
          clientId: client.client_id,
          code,
          ...(redirectUri === undefined ? {} : { redirectUri }),
          ...(resource ? { resource: resource.href } : {}),
        }),
      ),
    exchangeRefreshToken: (client, refreshToken, requested, resource) =>
      inOAuthTerms(() =>
        exchangeRefreshToken(db, {
          clientId: client.client_id,
          refreshToken,
          ...(requested ? { scopes: requested } : {}),
          ...(resource ? { resource: resource.href } : {}),
        }),
      ),
    // Access tokens are checked where /mcp resolves its caller (src/access/callers.ts), as API keys are.
    verifyAccessToken: () => Promise.reject(new Error('tokens are resolved by the callers of /mcp')),
    revokeToken: (client, request) => inOAuthTerms(() => revokeAppToken(db, client.client_id, request.token)),
  };
}

/** The metadata documents and the authorization server's endpoints, at the application root. */
export function mcpAuthRouter(services: Services): Router {
  const router = Router();
  const authorization = mcpAuthorization(services.config.publicBaseUrl);
  if (!authorization) return router;
  const { issuer } = authorization;
  const mcpResource = `${issuer}/mcp`;
  const oauth = provider(services, mcpResource);
  const endpoint = (path: string) => `${issuer}${path}`;
  // RFC 8414; every client is public and proves itself with PKCE S256 (connectedApps.ts says why).
  const serverMetadata: OAuthMetadata = {
    issuer,
    authorization_endpoint: endpoint('/authorize'),
    token_endpoint: endpoint('/token'),
    registration_endpoint: endpoint('/register'),
    revocation_endpoint: endpoint('/revoke'),
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: [...scopes],
    authorization_response_iss_parameter_supported: true,
  };
  // RFC 9728, at the path-specific address of /mcp and at the root (where the contract names it).
  const resourceMetadata: OAuthProtectedResourceMetadata = {
    resource: mcpResource,
    authorization_servers: [issuer],
    scopes_supported: [...scopes],
    bearer_methods_supported: ['header'],
    resource_name: 'Social publishing service (MCP)',
  };
  router.use(
    [protectedResourcePath, `${protectedResourcePath}/mcp`, '/.well-known/oauth-authorization-server', '/authorize', '/token', '/register', '/revoke'],
    (req, res, next) => {
      contextOf(res).route = req.baseUrl;
      next();
    },
  );
  router.use(`${protectedResourcePath}/mcp`, metadataHandler(resourceMetadata));
  router.use(protectedResourcePath, metadataHandler(resourceMetadata));
  router.use('/.well-known/oauth-authorization-server', metadataHandler(serverMetadata));
  router.use('/authorize', authorizationHandler({ provider: oauth }));
  router.use('/token', tokenHandler({ provider: oauth }));
  router.use('/register', express.json({ limit: '16kb' }), clientRegistrationHandler({ clientsStore: oauth.clientsStore, clientSecretExpirySeconds: 0 }));
  router.use('/revoke', revocationHandler({ provider: oauth }));
  return router;
}
