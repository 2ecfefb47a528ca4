// For tests only: the text of a file next to the test, read from disk. Vitest turns CSS imports
// (even ?raw) into "" and the project has no Node types, hence the narrow local type for the
// built-in fs module.
type ReadFile = { readFileSync(path: URL, encoding: "utf8"): string };
const { process: node } = globalThis as unknown as { process: { getBuiltinModule(id: "node:fs"): ReadFile } };

export function readTextFile(url: URL): string {
  return node.getBuiltinModule("node:fs").readFileSync(url, "utf8");
}
