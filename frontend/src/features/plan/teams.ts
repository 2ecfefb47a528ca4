import type { Schemas } from "../../api/client";

type Target = Schemas["Setting"]["target"];

export type TeamId = "network" | "storage" | "sysadmin" | "database";

export interface Team {
  id: TeamId;
  label: string;
  /** What the team's settings are applied to, in a few words. */
  where: string;
  /** Setting targets this team applies, in the order they are listed. */
  targets: Target[];
}

/** Who applies a setting: the team that owns the box it goes on. */
export const TEAMS: readonly Team[] = [
  { id: "network", label: "Network", where: "switches and links", targets: ["network", "switch"] },
  { id: "storage", label: "Storage", where: "the filer", targets: ["filer"] },
  { id: "sysadmin", label: "System administration", where: "the database hosts", targets: ["host"] },
  { id: "database", label: "Database", where: "the Oracle instance", targets: ["oracle"] },
];

const BY_TARGET = new Map<Target, Team>(TEAMS.flatMap((team) => team.targets.map((target) => [target, team] as const)));

/** The team that applies settings on `target`. */
export function teamOf(target: Target): Team {
  const team = BY_TARGET.get(target);
  if (!team) throw new Error(`no team applies settings on ${target}`);
  return team;
}

/** The items grouped by team, teams in TEAMS order, items in target order within a team and
 * otherwise in their given order; teams with nothing to do are left out. */
export function groupByTeam<T extends { target: Target }>(items: readonly T[]): { team: Team; items: T[] }[] {
  return TEAMS.map((team) => ({
    team,
    items: team.targets.flatMap((target) => items.filter((item) => item.target === target)),
  })).filter((group) => group.items.length > 0);
}

// A full stop after these does not end a sentence.
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|cf|vs|approx|etc|incl|resp|fig|no|rev|vol|ch|sec)\.$/i;

/** The first sentence of `text` (the whole text, whitespace collapsed, when it has one sentence). */
export function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  // An end mark before a space, but not the last dot of an elided "...".
  const end = /(?<!\.\.)[.!?](?=\s)/g;
  for (let match = end.exec(flat); match; match = end.exec(flat)) {
    const sentence = flat.slice(0, match.index + 1);
    if (!ABBREVIATION.test(sentence)) return sentence;
  }
  return flat;
}

/** A one-line reason: the first sentence of a rationale, cut at a word to at most `max`
 * characters (with an ellipsis) when it is longer. */
export function oneLineReason(rationale: string, max = 140): string {
  const sentence = firstSentence(rationale);
  if (sentence.length <= max) return sentence;
  // max characters, of which the ellipsis takes the last: cut at the last space within them.
  const cut = sentence.slice(0, max);
  const space = cut.lastIndexOf(" ");
  const words = space > max / 2 ? cut.slice(0, space) : cut.slice(0, max - 1);
  return `${words.replace(/[\s,;:(—–-]+$/, "")}…`;
}
