import type { UseInfiniteQueryResult } from '@tanstack/react-query';

/** The next page of a keyset-paginated list. */
export function LoadMore({ query }: { query: Pick<UseInfiniteQueryResult, 'hasNextPage' | 'isFetchingNextPage' | 'fetchNextPage'> }) {
  if (!query.hasNextPage) return null;
  return (
    <button type="button" className="button" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
      {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
    </button>
  );
}
