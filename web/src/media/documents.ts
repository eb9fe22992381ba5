// The graph's documents for the media library. Each one spells out MediaItem's fields (see types.ts), so every
// document stands alone and test/browser/graphDocuments.test.ts checks it against the schema.

export const MediaPageQuery = `
  query MediaPage($first: Int!, $after: String, $q: String, $type: MediaType, $status: MediaStatus) {
    media(first: $first, after: $after, q: $q, type: $type, status: $status) {
      edges { node { id filename status type mimeType size width height durationMs altText thumbnailUrl error { code message } createdAt } }
      pageInfo { hasNextPage endCursor }
    }
  }`;

export const MediaFileQuery = `
  query MediaFile($id: ID!) {
    mediaFile(id: $id) { id filename status type mimeType size width height durationMs altText thumbnailUrl error { code message } createdAt }
  }`;

export const StartUpload = `
  mutation StartUpload($filename: String!, $contentType: String!, $size: Float!) {
    startUpload(filename: $filename, contentType: $contentType, size: $size) {
      id uploadUrl method headers parts { partBytes parts { partNumber bytes url method headers } }
    }
  }`;

export const CompleteUpload = `mutation CompleteUpload($id: ID!) { completeUpload(id: $id) { id status } }`;

export const SetAltText = `
  mutation SetAltText($id: ID!, $altText: String) {
    setAltText(id: $id, altText: $altText) { id altText }
  }`;

export const SuggestAltText = `
  mutation SuggestAltText($mediaId: ID!) {
    suggestAltText(mediaId: $mediaId) { altText creditsUsed creditsRemaining }
  }`;

export const DeleteMedia = `mutation DeleteMedia($id: ID!) { deleteMedia(id: $id) }`;
