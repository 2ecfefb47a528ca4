// The config bundle, read in the browser: unzip, group by team, describe, pick a language, highlight.
// Only BundlePreview imports this module, and Exports loads BundlePreview with import(), so
// fflate and highlight.js stay out of the initial JavaScript.
import { strFromU8, unzipSync } from "fflate";
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import ini from "highlight.js/lib/languages/ini";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import plaintext from "highlight.js/lib/languages/plaintext";
import sql from "highlight.js/lib/languages/sql";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

hljs.registerLanguage("bash", bash);
hljs.registerLanguage("ini", ini);
hljs.registerLanguage("json", json);
// The bundle's Markdown opens with an HTML comment block: make it one comment, so the
// underscores in DB_NAME inside it do not start emphasis over several lines.
hljs.registerLanguage("markdown", (api) => {
  const language = markdown(api);
  return { ...language, contains: [api.COMMENT(/<!--/, /-->/), ...(language.contains ?? [])] };
});
hljs.registerLanguage("plaintext", plaintext);
hljs.registerLanguage("sql", sql);
hljs.registerLanguage("xml", xml);
hljs.registerLanguage("yaml", yaml);
// Mount tables, /etc/system, ce.conf, filer command lists: only their comment lines stand out.
hljs.registerLanguage("config", () => ({
  name: "Configuration lines",
  contains: [{ scope: "comment", begin: /^[ \t]*[#*]/, end: /$/ }],
}));

export type TabId = "mount" | "kernel" | "filer" | "oracle" | "scripts" | "other";
export type Language = "bash" | "config" | "ini" | "json" | "markdown" | "plaintext" | "sql" | "xml" | "yaml";

export const TABS: readonly { id: TabId; label: string }[] = [
  { id: "mount", label: "Mount table" },
  { id: "kernel", label: "Kernel & network" },
  { id: "filer", label: "Filer" },
  { id: "oracle", label: "Oracle" },
  { id: "scripts", label: "Scripts" },
  { id: "other", label: "Other" },
];

export interface BundleFile {
  /** Path inside the bundle, without the zip's top folder: "host/vfstab.add". */
  path: string;
  text: string;
  tab: TabId;
  language: Language;
  /** What the file is for, from the Files table of the bundle's README.md; null when it has no row. */
  description: string | null;
}

export interface FileGroup {
  id: TabId;
  label: string;
  files: BundleFile[];
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/**
 * Which tab a bundle path belongs to. Folders decide first (filer/ and terraform/ with the
 * filer playbooks, oracle/, verify/ and rollback/); host/ files are split by purpose: the mount table lines (vfstab, fstab,
 * /etc/filesystems), host scripts (*.sh), and everything else there is kernel and NIC
 * configuration (sysctl.d files, /etc/system, ndd start-up script, ce.conf, nfso…).
 */
export function tabFor(path: string): TabId {
  const [top] = path.split("/");
  const name = baseName(path);
  if (top === "verify" || top === "rollback") return "scripts";
  // The storage side as tools run it: Terraform for cloud NAS, the netapp.ontap playbooks.
  if (top === "filer" || top === "terraform" || /^ansible\/filer(_rollback)?\.yml$/.test(path)) return "filer";
  if (top === "oracle") return "oracle";
  if (top === "host") {
    if (/^(vfstab|fstab|filesystems)\b/.test(name)) return "mount";
    if (name.endsWith(".sh")) return "scripts";
    return "kernel";
  }
  return "other";
}

/**
 * The highlight.js language for a file: by extension, then by shebang, then "config" (comment
 * lines only) when lines start with # or *, else plain text.
 */
export function languageFor(path: string, text: string): Language {
  const name = baseName(path).toLowerCase();
  if (name.endsWith(".sh")) return "bash";
  if (name.endsWith(".sql")) return "sql";
  if (name.endsWith(".json")) return "json";
  if (name.endsWith(".md")) return "markdown";
  if (name.endsWith(".yml") || name.endsWith(".yaml")) return "yaml";
  if (name.endsWith(".html") || name.endsWith(".htm")) return "xml";
  // key = value files: sysctl.d, sysctl.conf lines, Ansible inventory, init.ora parameters.
  if (name.endsWith(".ini") || name.endsWith(".conf") || name === "sysctl.conf.add" || name === "init.ora.add") {
    return "ini";
  }
  if (/^#!\s*\S*\/(env\s+)?(ba|k|z)?sh\b/.test(text)) return "bash";
  if (/^[ \t]*[#*]/m.test(text)) return "config";
  return "plaintext";
}

/** README.md (the bundle's index) first, then by path. */
function sortKey(path: string): string {
  return path === "README.md" ? "" : path;
}

/** A Markdown table row's cells, split on the pipes the backend's md() did not escape. */
function tableCells(line: string): string[] {
  return line
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "")
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\(.)/g, "$1"));
}

/**
 * Path → "what" from the "## Files" table of the bundle's README.md
 * (| `path` | phase | who | what |, written by backend/nasplan/renderers/bundle.py).
 */
export function readmeDescriptions(readme: string): Map<string, string> {
  const descriptions = new Map<string, string>();
  const start = readme.search(/^## Files$/m);
  if (start < 0) return descriptions;
  for (const line of readme.slice(start).split("\n").slice(1)) {
    if (line.startsWith("## ")) break;
    if (!line.startsWith("| `")) continue;
    const [file, , , what] = tableCells(line);
    const path = /^`([^`]+)`$/.exec(file ?? "")?.[1];
    if (path !== undefined && what) descriptions.set(path, what);
  }
  return descriptions;
}

/** Unzip the bundle (as the server sends it) into files, dropping the zip's top folder. */
export function unzipBundle(zip: Uint8Array): BundleFile[] {
  const entries = Object.entries(unzipSync(zip)).filter(([path]) => !path.endsWith("/"));
  const roots = new Set(entries.map(([path]) => (path.includes("/") ? path.slice(0, path.indexOf("/") + 1) : "")));
  const root = roots.size === 1 ? [...roots][0] ?? "" : "";
  const files = entries
    .map(([path, data]) => {
      const inner = path.slice(root.length);
      const text = strFromU8(data);
      return { path: inner, text, tab: tabFor(inner), language: languageFor(inner, text), description: null };
    })
    .sort((a, b) => (sortKey(a.path) < sortKey(b.path) ? -1 : sortKey(a.path) > sortKey(b.path) ? 1 : 0));
  const readme = files.find((file) => file.path === "README.md");
  const descriptions = readmeDescriptions(readme?.text ?? "");
  return files.map((file) => ({ ...file, description: descriptions.get(file.path) ?? null }));
}

/** The files under their group headings, in TABS order; groups without files are left out. */
export function groupFiles(files: readonly BundleFile[]): FileGroup[] {
  return TABS.map((tab) => ({ ...tab, files: files.filter((file) => file.tab === tab.id) })).filter(
    (group) => group.files.length > 0,
  );
}

/** How many lines the preview numbers: a final newline ends the last line, it does not start one. */
export function lineCount(text: string): number {
  if (text === "") return 1;
  const breaks = text.split("\n").length - 1;
  return text.endsWith("\n") ? breaks : breaks + 1;
}

/** Highlighted HTML for a file. highlight.js escapes the text, so the result is safe to inject. */
export function highlight(text: string, language: Language): string {
  return hljs.highlight(text, { language, ignoreIllegals: true }).value;
}
