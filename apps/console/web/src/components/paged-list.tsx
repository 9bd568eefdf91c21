import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { itemsOf } from '../api/pages';
import { LoadMore } from './load-more';
import { ErrorState, Loading } from './states';

/**
 * A keyset-paged list in its states: loading, an error (with Try again), `empty` when there is no
 * item, or the items (rendered by `children`, usually a table) followed by Load more.
 */
export function PagedList<T>({
  query,
  empty,
  children,
}: {
  query: UseInfiniteQueryResult<InfiniteData<{ data: T[] }>>;
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} retry={() => void query.refetch()} />;
  const items = itemsOf(query.data);
  if (items.length === 0) return <>{empty}</>;
  return (
    <>
      {children(items)}
      <LoadMore query={query} />
    </>
  );
}
