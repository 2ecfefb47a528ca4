import { describe, expect, it } from "vitest";
import type { Schemas } from "../../api/client";
import { historyEvents } from "./History";

describe("design history", () => {
  it("puts revisions, approvals, audits and as-built checks in one list, newest first", () => {
    const revisions = [
      { number: 1, name: "d", created_at: "2026-11-01T10:00:00Z", kb_version: "2026.12.1", as_of: "2026-11-01", status: "approved",
        approval: { reviewer: "Ann", approved_at: "2026-11-02T09:00:00Z", bundle_sha256: "x" } },
    ] as unknown as Schemas["RevisionSummary"][];
    const audits = [
      { id: 1, revision: 1, created_at: "2026-10-30T08:00:00Z", label: "before", score: 40 },
    ] as unknown as Schemas["DesignAuditSummary"][];
    const checks = [
      { id: 1, revision: 1, created_at: "2026-11-05T12:00:00Z", host: "db01", counts: { verified: 12, differs: 1 } },
    ] as unknown as Schemas["AsBuiltSummary"][];
    const events = historyEvents(revisions, audits, checks);
    expect(events.map((e) => e.kind)).toEqual(["as built", "approval", "revision", "audit"]);
    expect(events[0]?.text).toBe("db01 checked against revision 1: 12 verified, 1 differ");
    expect(events[3]?.text).toBe('Audit "before" against revision 1: score 40%');
  });

  it("orders events of the same second as they must have happened, latest first", () => {
    const revisions = [
      { number: 1, name: "d", created_at: "2026-11-24T19:41:05Z", kb_version: "2026.12.1", as_of: "2026-11-24", status: "draft", approval: null },
    ] as unknown as Schemas["RevisionSummary"][];
    const audits = [
      { id: 1, revision: 1, created_at: "2026-11-24T19:41:05Z", label: "before", score: 33 },
    ] as unknown as Schemas["DesignAuditSummary"][];
    expect(historyEvents(revisions, audits, []).map((e) => e.kind)).toEqual(["audit", "revision"]);
  });
});
