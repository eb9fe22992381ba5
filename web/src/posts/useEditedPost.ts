// The post the composer edits (`/posts/<id>/edit`): read from the graph, handed to the composer as its model, and read
// again on `reload` (after a stale version was refused), which replaces what the composer holds.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useClient } from 'urql';
import type { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { draftOf, threadDraftOf, type SavedTarget, type TargetDraft, type ThreadPartDraft } from '../composer/model.ts';
import type { MediaItem } from '../media/types.ts';
import type { PostState } from './actions.ts';
import { EditedPost as EditedPostQuery } from './documents.ts';

export interface EditedPost extends PostState {
  caption: string;
  attachments: MediaItem[];
  thread: ThreadPartDraft[];
  targets: TargetDraft[];
}

interface Answer {
  post: PostState & { content: { caption: string; thread: { caption: string; mediaIds: string[] }[] }; media: MediaItem[]; targets: SavedTarget[] };
}

/** `postId` undefined: a new post (nothing to read). `onLoad` gets the post each time it is read. */
export function useEditedPost(postId: string | undefined, onLoad: (post: EditedPost) => void) {
  const client = useClient();
  const [post, setPost] = useState<EditedPost | null>(null);
  // What the next save updates: the post read, or the one a first save created (a refused publish after it must not
  // make a second post), at its latest version.
  const [saveAs, setSaveAs] = useState<{ id: string; version: number } | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [reads, setReads] = useState(0);
  const loaded = useRef(onLoad);
  loaded.current = onLoad;

  // biome-ignore lint/correctness/useExhaustiveDependencies(reads): not read, only counted: Reload bumps it so the post is read again
  useEffect(() => {
    if (!postId) return;
    let current = true;
    client
      .query<Answer>(EditedPostQuery, { id: postId }, { requestPolicy: 'network-only' })
      .toPromise()
      .then((result) => {
        if (!current) return;
        if (result.error || !result.data) return setError(result.error ? apiErrorOf(result.error) : null);
        const { content, media, targets, ...state } = result.data.post;
        const edited = { ...state, caption: content.caption, attachments: media, thread: threadDraftOf(content.thread), targets: targets.map(draftOf) };
        setError(null);
        setPost(edited);
        setSaveAs({ id: edited.id, version: edited.version });
        loaded.current(edited);
      });
    return () => {
      current = false;
    };
  }, [client, postId, reads]);

  const reload = useCallback(() => setReads((count) => count + 1), []);
  /** After a save: the post's new version and state, so the next save sends them. */
  const saved = useCallback((state: PostState) => {
    setSaveAs({ id: state.id, version: state.version });
    setPost((previous) => (previous ? { ...previous, ...state } : previous));
  }, []);
  return { post, saveAs, error, reload, saved };
}
