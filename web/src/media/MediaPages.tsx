// The media library's files matching some filters, page after page ("More"), newest first. Each page is its own
// query, so urql refreshes it after any mutation that answers a MediaFile.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from 'urql';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { ErrorBanner } from '../ui.tsx';
import { Button } from '../ui/Button.tsx';
import { EmptyState } from '../ui/EmptyState.tsx';
import { MediaPageQuery } from './documents.ts';
import type { MediaItem, MediaStatus, MediaType } from './types.ts';
import './media.css';

export interface MediaFilters {
  /** Searched in file names and alt texts. */
  q?: string | undefined;
  type?: MediaType | undefined;
  status?: MediaStatus | undefined;
}

interface MediaPagesProps {
  filters: MediaFilters;
  /** Only these files are shown (for conditions the graph does not filter by). */
  show?: (item: MediaItem) => boolean;
  /** Changing it reloads every page shown (e.g. once an upload is ready). */
  refresh?: number;
  pageSize?: number;
  children: (item: MediaItem) => ReactNode;
}

/** Starts again at the first page whenever the filters change. */
export function MediaPages(props: MediaPagesProps) {
  return <Pages key={JSON.stringify(props.filters)} {...props} />;
}

function Pages({ filters, show, refresh = 0, pageSize = 24, children }: MediaPagesProps) {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [next, setNext] = useState<string | null>(null);
  return (
    <>
      <ul className="media-grid">
        {cursors.map((after, index) => (
          <Page
            key={after ?? ''}
            variables={{ ...filters, first: pageSize, after }}
            onEnd={index === cursors.length - 1 ? setNext : undefined}
            show={show}
            refresh={refresh}
            isFirst={index === 0}
          >
            {children}
          </Page>
        ))}
      </ul>
      {next && (
        <Button
          className="more"
          onPress={() => {
            setCursors([...cursors, next]);
            setNext(null);
          }}
        >
          {t('media.more')}
        </Button>
      )}
    </>
  );
}

interface MediaPageData {
  media: { edges: { node: MediaItem }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

function Page({
  variables,
  onEnd,
  show,
  refresh,
  isFirst,
  children,
}: {
  variables: MediaFilters & { first: number; after: string | null };
  onEnd: ((cursor: string | null) => void) | undefined;
  show: ((item: MediaItem) => boolean) | undefined;
  refresh: number;
  isFirst: boolean;
  children: (item: MediaItem) => ReactNode;
}) {
  // Named so that an empty page is refreshed too when a mutation answers a MediaFile.
  const context = useMemo(() => ({ additionalTypenames: ['MediaFile'] }), []);
  const [{ data, error, fetching }, reload] = useQuery<MediaPageData>({ query: MediaPageQuery, variables, context });
  const pageInfo = data?.media.pageInfo;
  useEffect(() => {
    if (onEnd && pageInfo) onEnd(pageInfo.hasNextPage ? pageInfo.endCursor : null);
  }, [onEnd, pageInfo]);
  useEffect(() => {
    if (refresh) reload({ requestPolicy: 'network-only' });
  }, [refresh, reload]);

  if (error) {
    return (
      <li className="wide">
        <ErrorBanner error={apiErrorOf(error)} />
      </li>
    );
  }
  if (!data) return fetching && isFirst ? <li className="wide muted">{t('common.loading')}</li> : null;
  const items = data.media.edges.map((edge) => edge.node).filter((item) => !show || show(item));
  if (isFirst && !items.length && !pageInfo?.hasNextPage) {
    return (
      <li className="wide">
        <EmptyState title={t('media.none')}>
          <p>{t('media.noneHint')}</p>
        </EmptyState>
      </li>
    );
  }
  return items.map((item) => <li key={item.id}>{children(item)}</li>);
}
