// The graph's enums, built from the domain's own lists so that neither can gain a value the other lacks. GraphQL
// names are upper case (`PARTIALLY_PUBLISHED`, `POSTS_READ`, `POST_PUBLISHED`); each stands for the REST value
// (`partially_published`, `posts:read`, `post.published`), which is what resolvers receive and return.
import { builder } from './builder.ts';
import { postActions, postStatuses, targetStatuses } from '../src/posts/states.ts';
import { mediaStatuses, mediaTypes } from '../src/media/library.ts';
import { placementNames, providerNames } from '../src/providers/catalog.ts';
import { roles, scopes, scopePresets } from '../src/access/scopes.ts';
import { eventTypes } from '../src/events/outbox.ts';
import { deliveryStatuses } from '../src/webhooks/endpoints.ts';
import { weekdays } from '../src/queues/slots.ts';
import { groupings } from '../src/analytics/report.ts';
import { inboxKinds, inboxReplyStatuses, inboxStatuses } from '../src/inbox/inbox.ts';

/** `post.partially_published` → `POST_PARTIALLY_PUBLISHED`, `posts:read` → `POSTS_READ`. */
export function enumValueName(value: string): string {
  return value.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}

export function domainEnum<Value extends string>(name: string, values: readonly Value[], description: string) {
  return builder.enumType(name, {
    description: `${description} Each value is REST's, in upper case with \`_\` for punctuation.`,
    values: Object.fromEntries(values.map((value) => [enumValueName(value), { value }])) as Record<string, { value: Value }>,
  });
}

export const PostStatus = domainEnum(
  'PostStatus',
  postStatuses,
  'Where a post is in its life: draft (in review or changes requested where approval is required), scheduled, publishing, then published, partially published or failed.',
);
export const PostAction = domainEnum(
  'PostAction',
  postActions,
  'Something a post’s state and review allow: update, delete, schedule, queue, publish, retry, submit, approve or request changes.',
);
export const TargetStatus = domainEnum('TargetStatus', targetStatuses, 'Where one target (account and placement) of a post is.');
export const MediaStatus = domainEnum('MediaStatus', mediaStatuses, 'A media file: uploading, processing after the upload completed, ready, or failed.');
export const MediaType = domainEnum('MediaType', mediaTypes, 'The kind of a media file, known once it is checked.');
export const Provider = domainEnum('Provider', providerNames, 'A social network (GET /v1/providers); `SANDBOX` is the built-in test network.');
export const Placement = domainEnum('Placement', placementNames, 'Where on a network a target goes; which placements a network offers: `providers`.');
export const Role = domainEnum('Role', roles, 'A person’s role in a workspace.');
export const Scope = domainEnum('Scope', scopes, 'A permission of an API key.');
export const ScopePreset = domainEnum('ScopePreset', Object.keys(scopePresets) as (keyof typeof scopePresets)[], 'A named set of scopes for a new API key.');
export const EventKind = domainEnum('EventKind', eventTypes, 'A webhook event kind.');
export const DeliveryStatus = domainEnum(
  'DeliveryStatus',
  deliveryStatuses,
  'A webhook delivery: pending (first or next attempt due), succeeded, or failed for good.',
);
export const Weekday = domainEnum('Weekday', weekdays, 'A day of a queue’s week.');
export const AnalyticsGrouping = domainEnum('AnalyticsGrouping', groupings, 'How analytics rows are grouped.');
export const InboxStatus = domainEnum('InboxStatus', inboxStatuses, 'An inbox item: open until someone marks it done.');
export const InboxKind = domainEnum('InboxKind', inboxKinds, 'What an inbox item is: a comment on the post, a reply to a comment under it, or a mention.');
export const InboxReplyStatus = domainEnum('InboxReplyStatus', inboxReplyStatuses, 'An answer to an inbox item: pending, being posted, published or failed.');
