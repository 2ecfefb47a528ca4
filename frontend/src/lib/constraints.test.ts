import { describe, expect, it } from "vitest";
import type { Catalog } from "../api/client";
import { dnfsBlocked, inRange } from "./constraints";

const catalog = {
  constraints: [
    { rule: "DNFS-REQUIRES-11G", title: "Direct NFS needs Oracle 11g Release 1 or later", when: { dnfs: true, oracle: "<11.1" }, messages: [] },
    { rule: "DNFS-NFS41-MIN-RELEASE", title: "over 4.1", when: { dnfs: true, oracle: "<12.2.0.2", nfs_version: ["4.1"] }, messages: [] },
  ],
} as unknown as Catalog;

describe("constraints from the catalog", () => {
  it("reads simple release specifiers", () => {
    expect(inRange("10.2.0.4", "<11.1")).toBe(true);
    expect(inRange("11.1", "<11.1")).toBe(false);
    expect(inRange("19.21", ">=12.2,<23")).toBe(true);
    expect(inRange("9.2", "~=9")).toBe(false);
  });

  it("blocks Direct NFS before 11g with the rule's words, and only then", () => {
    expect(dnfsBlocked(catalog, "9.2.0.4")).toBe("Direct NFS needs Oracle 11g Release 1 or later");
    expect(dnfsBlocked(catalog, "11.2.0.4")).toBeNull();
    expect(dnfsBlocked(catalog, "")).toBeNull();
  });
});
