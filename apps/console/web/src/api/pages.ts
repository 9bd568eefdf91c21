import type { InfiniteData } from '@tanstack/react-query';

/** Keyset pages of the management API ({ data, nextCursor }) for useInfiniteQuery. */
export const KEYSET_PAGES = {
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (page: { nextCursor: string | null }) => page.nextCursor ?? undefined,
};

export function itemsOf<T>(data: InfiniteData<{ data: T[] }> | undefined): T[] {
  return data?.pages.flatMap((page) => page.data) ?? [];
}
