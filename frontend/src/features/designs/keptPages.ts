// The audits and as-built checks a design keeps come a page of summaries at a time, newest first;
// each full record is read when the user opens it.
import { useInfiniteQuery } from "@tanstack/react-query";

export interface KeptPage<T> {
  items: T[];
  next: number | null;
  total: number;
}

/** Every summary of the pages loaded so far, newest first. */
export function loadedItems<T>(pages: KeptPage<T>[] | undefined): T[] {
  return (pages ?? []).flatMap((page) => page.items);
}

/** How many older records the loaded pages leave out. */
export function olderCount<T>(pages: KeptPage<T>[] | undefined): number {
  const last = pages?.[pages.length - 1];
  if (!pages || !last || last.next === null) return 0;
  return Math.max(0, last.total - loadedItems(pages).length);
}

/** Pages of a design's kept records: `fetchPage(before)` reads the page older than `before`. */
export function useKeptPages<T>(queryKey: readonly unknown[], fetchPage: (before: number | null) => Promise<KeptPage<T>>) {
  return useInfiniteQuery({
    queryKey,
    initialPageParam: null as number | null,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    getNextPageParam: (last) => last.next,
  });
}
