// What each domain operation requires of its caller. The domain calls `authorize` at the start of every
// operation; the GraphQL scope-auth plugin calls the same function, so every transport enforces one table.
import { requireRole, requireScopes, type Actor } from './actor.ts';
import { managerRoles, type Role, type Scope } from './scopes.ts';

interface Requirement {
  scopes: readonly Scope[];
  roles?: readonly Role[];
}

export const operationRequirements = {
  listSocialAccounts: { scopes: ['accounts:read'] },
  getSocialAccount: { scopes: ['accounts:read'] },
  getSettingOptions: { scopes: ['accounts:read'] },
  startAccountConnection: { scopes: ['accounts:write'], roles: managerRoles },
  getConnectionOutcome: { scopes: ['accounts:read'] },
  addSocialAccount: { scopes: ['accounts:write'], roles: managerRoles },
  disconnectSocialAccount: { scopes: ['accounts:write'], roles: managerRoles },
  listProviders: { scopes: [] },
  viewer: { scopes: [] },
  requestLog: { scopes: [], roles: managerRoles },
  listApiKeys: { scopes: ['access:write'], roles: managerRoles },
  createApiKey: { scopes: ['access:write'], roles: managerRoles },
  revokeApiKey: { scopes: ['access:write'], roles: managerRoles },
  /** A person's own connected apps: any member, each app capped by its person's role (see connectedApps.ts). */
  connectApp: { scopes: [] },
  listConnectedApps: { scopes: [] },
  disconnectApp: { scopes: [] },
  listMembers: { scopes: ['access:write'], roles: managerRoles },
  addMember: { scopes: ['access:write'], roles: managerRoles },
  setMemberRole: { scopes: ['access:write'], roles: managerRoles },
  removeMember: { scopes: ['access:write'], roles: managerRoles },
  listPosts: { scopes: ['posts:read'] },
  getPost: { scopes: ['posts:read'] },
  createPost: { scopes: ['posts:write'] },
  validatePost: { scopes: ['posts:write'] },
  importPosts: { scopes: ['posts:write'] },
  exportPosts: { scopes: ['posts:read'] },
  updatePost: { scopes: ['posts:write'] },
  deletePost: { scopes: ['posts:write'] },
  publishPost: { scopes: ['posts:write'] },
  schedulePost: { scopes: ['posts:write'] },
  retryPost: { scopes: ['posts:write'] },
  submitPost: { scopes: ['posts:write'] },
  approvePost: { scopes: ['posts:write'], roles: managerRoles },
  requestPostChanges: { scopes: ['posts:write'], roles: managerRoles },
  listPostComments: { scopes: ['posts:read'] },
  addPostComment: { scopes: ['posts:write'] },
  /** A review link lets its holder approve: only those who may approve hand one out. */
  createReviewLink: { scopes: ['posts:write'], roles: managerRoles },
  listReviewLinks: { scopes: ['posts:read'], roles: managerRoles },
  revokeReviewLink: { scopes: ['posts:write'], roles: managerRoles },
  getWorkspace: { scopes: [] },
  updateWorkspace: { scopes: ['posts:write'], roles: managerRoles },
  listInbox: { scopes: ['posts:read'] },
  updateInboxItem: { scopes: ['posts:write'] },
  replyToInboxItem: { scopes: ['posts:write'] },
  listMedia: { scopes: ['media:read'] },
  getMedia: { scopes: ['media:read'] },
  startUpload: { scopes: ['media:write'] },
  completeUpload: { scopes: ['media:write'] },
  setAltText: { scopes: ['media:write'] },
  deleteMedia: { scopes: ['media:write'] },
  createWebhook: { scopes: ['webhooks:write'] },
  listWebhooks: { scopes: ['webhooks:write'] },
  getWebhook: { scopes: ['webhooks:write'] },
  updateWebhook: { scopes: ['webhooks:write'] },
  deleteWebhook: { scopes: ['webhooks:write'] },
  rotateWebhookSecret: { scopes: ['webhooks:write'] },
  testWebhook: { scopes: ['webhooks:write'] },
  listWebhookDeliveries: { scopes: ['webhooks:write'] },
  replayWebhookDelivery: { scopes: ['webhooks:write'] },
  listQueues: { scopes: ['posts:read'] },
  createQueue: { scopes: ['posts:write'] },
  updateQueue: { scopes: ['posts:write'] },
  deleteQueue: { scopes: ['posts:write'] },
  queuePost: { scopes: ['posts:write'] },
  listFeeds: { scopes: ['posts:read'] },
  getFeed: { scopes: ['posts:read'] },
  createFeed: { scopes: ['posts:write'] },
  updateFeed: { scopes: ['posts:write'] },
  deleteFeed: { scopes: ['posts:write'] },
  getAnalytics: { scopes: ['analytics:read'] },
  getLinkDefaults: { scopes: [] },
  setLinkDefaults: { scopes: ['posts:write'], roles: managerRoles },
  exportAnalytics: { scopes: ['analytics:read'] },
  getAi: { scopes: ['ai:write'] },
  suggestCaptions: { scopes: ['ai:write', 'posts:write'] },
  suggestAltText: { scopes: ['ai:write', 'media:write'] },
  generateImage: { scopes: ['ai:write', 'media:write'] },
} as const satisfies Record<string, Requirement>;

export type Operation = keyof typeof operationRequirements;

/** Throws 403 FORBIDDEN naming the scope (or role) and the operation when the actor may not run it. */
export function authorize(actor: Actor, operation: Operation): void {
  const requirement: Requirement = operationRequirements[operation];
  requireScopes(actor, requirement.scopes, operation);
  if (requirement.roles) requireRole(actor, requirement.roles, operation);
}
