// The revision diff by team: the answers that changed first, then what each team does
// differently (its settings, mounts, volumes and checks, and the bundle files it runs), then
// what concerns everyone (findings, expected performance, the runbook and plan.json).
import type { Change, Schemas } from "../../api/client";
import { type TeamId, TEAMS, teamOf } from "../plan/teams";

export type FileDiff = Schemas["FileDiff"];
export type SectionId = "answers" | TeamId | "everyone";

export interface DiffSection {
  id: SectionId;
  title: string;
  /** What the section is about, in a few words ("the filer"). */
  where: string;
  changes: Change[];
  files: FileDiff[];
}

const CHECK_PLACES = new Set(["host", "filer", "oracle", "switch"]);

/** Who acts on a change: the team that owns the box it is on. */
export function changeSection(change: Change): SectionId {
  switch (change.item) {
    case "platform":
      return "answers";
    case "mount":
      return "sysadmin";
    case "volume":
      return "storage";
    case "setting": {
      const target = change.setting?.target;
      return TEAMS.find((team) => team.targets.some((t) => t === target))?.id ?? "everyone";
    }
    case "check": {
      const where = change.check?.where ?? "";
      return CHECK_PLACES.has(where) ? teamOf(where as Schemas["Check"]["where"]).id : "everyone";
    }
    default:
      return "everyone";
  }
}

/**
 * Who runs a bundle file, as the bundle's README index says: filer/ and terraform/ and the
 * filer's playbooks, rollback and checks are the storage administrator's; host/ and the other
 * playbooks, the host's rollback and checks the Unix administrator's; oracle/ and the database's
 * rollback and checks the DBA's; the runbooks, plan.json and the bundle check are everyone's.
 */
export function fileSection(path: string): SectionId {
  const slash = path.indexOf("/");
  const folder = slash < 0 ? "" : path.slice(0, slash);
  const name = path.slice(slash + 1);
  if (folder === "filer" || folder === "terraform" || (folder !== "" && name.startsWith("filer"))) return "storage";
  if (folder === "oracle" || /^(verify_)?oracle/.test(name)) return "database";
  if (folder === "host" || folder === "ansible" || /^(verify_)?host/.test(name) || path === "verify/collect.sh") return "sysadmin";
  return "everyone";
}

const ANSWERS = { id: "answers", title: "Answers changed", where: "what the author changed in the design" } as const;
const EVERYONE = { id: "everyone", title: "Everyone", where: "findings, expected performance, the runbook and the plan" } as const;

/** The sections with something in them, in reading order: answers, the teams, everyone. */
export function diffSections(changes: readonly Change[], files: readonly FileDiff[]): DiffSection[] {
  const heads = [ANSWERS, ...TEAMS.map((team) => ({ id: team.id, title: team.label, where: team.where })), EVERYONE];
  return heads
    .map((head) => ({
      ...head,
      changes: changes.filter((change) => changeSection(change) === head.id),
      files: files.filter((file) => fileSection(file.path) === head.id),
    }))
    .filter((section) => section.changes.length + section.files.length > 0);
}

/** How many lines a file's diff adds and removes. */
export function lineCounts(file: FileDiff): { added: number; removed: number } {
  const kinds = file.lines.map(diffLineKind);
  return { added: kinds.filter((kind) => kind === "added").length, removed: kinds.filter((kind) => kind === "removed").length };
}

export type DiffLineKind = "added" | "removed" | "hunk" | "header" | "same";

/** What a line of a unified diff is, by its first characters: its first two lines are the
 * ---/+++ header (a removed SQL comment reads "--- …" too). */
export function diffLineKind(line: string, index: number): DiffLineKind {
  if (index < 2 && (line.startsWith("--- ") || line.startsWith("+++ "))) return "header";
  if (line.startsWith("@@")) return "hunk";
  if (line.startsWith("+")) return "added";
  if (line.startsWith("-")) return "removed";
  return "same";
}
