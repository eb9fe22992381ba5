// The graph's post actions as the dashboard sends them: each answers the post's new state and what that state allows.
// Written out whole (no interpolation), so test/browser/graphDocuments.test.ts checks each against the schema.

export const CreatePost = `mutation CreatePost($content: PostContentInput!, $targets: [TargetInput!]!) { createPost(content: $content, targets: $targets) { id status version scheduledAt timezone actions } }`;
export const UpdatePost = `mutation UpdatePost($id: ID!, $version: Int!, $content: PostContentInput!, $targets: [TargetInput!]!) { updatePost(id: $id, version: $version, content: $content, targets: $targets) { id status version scheduledAt timezone actions } }`;
export const PublishPost = `mutation PublishPost($id: ID!) { publishPost(id: $id) { id status version scheduledAt timezone actions } }`;
export const SchedulePost = `mutation SchedulePost($id: ID!, $scheduledAt: DateTime!, $timezone: String!) { schedulePost(id: $id, scheduledAt: $scheduledAt, timezone: $timezone) { id status version scheduledAt timezone actions } }`;
export const QueuePost = `mutation QueuePost($id: ID!, $queueId: ID!) { queuePost(id: $id, queueId: $queueId) { id status version scheduledAt timezone actions } }`;
export const DuplicatePost = `mutation DuplicatePost($id: ID!) { duplicatePost(id: $id) { id status version scheduledAt timezone actions } }`;
export const DeletePost = `mutation DeletePost($id: ID!) { deletePost(id: $id) }`;

/** A post as the composer edits it: its content, media, targets with their accounts, and the version to send back. */
export const EditedPost = `
  query EditedPost($id: ID!) {
    post(id: $id) {
      id status version scheduledAt timezone actions
      content { caption thread { caption mediaIds } }
      media { id filename status type mimeType size width height durationMs altText thumbnailUrl error { code message } createdAt }
      targets { placement settings override { caption } account { id displayName username provider status avatarUrl } }
    }
  }`;
