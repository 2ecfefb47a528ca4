// The two dates of the time travel and what changed between them: always told from the earlier
// date forward, with the platform's releases that did not exist yet on it.
import { useQuery } from "@tanstack/react-query";
import { api, type Platform, type Schemas, unwrap } from "../../api/client";

export const FIRST_SOURCE = "2004-05-01";

export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

export type NotYetReleased = Schemas["NotYetReleasedOut"];

/** Two dates of the time travel in order ("" is today, the latest): the story always runs
 * from the earlier to the later, so it reads the same whichever date was clicked first. */
export function inOrder(a: string, b: string): [string, string] {
  const day = (value: string) => value || today();
  return day(a) <= day(b) ? [a, b] : [b, a];
}

/** "Oracle Database 19c (first released on 25 April 2019) and ONTAP 9.14.1 (in January 2024)". */
export function unreleasedWords(releases: readonly NotYetReleased[]): string {
  const items = releases.map((r, i) => `${r.label} (${i === 0 ? "first released " : ""}${r.available})`);
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1] ?? ""}`;
}

export function useDateChanges(platform: Platform | null, from: string | null, to: string) {
  return useQuery({
    queryKey: ["compare", platform ? JSON.stringify(platform) : null, from, to],
    enabled: platform !== null && from !== null && from !== to,
    queryFn: async () =>
      unwrap(
        await api.POST("/api/v1/plans/compare", {
          body: {
            platform: platform as Platform,
            from_as_of: from || today(),
            to_as_of: to || today(),
          },
        }),
      ),
  });
}

