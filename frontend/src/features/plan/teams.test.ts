import { describe, expect, it } from "vitest";
import { firstSentence, groupByTeam, oneLineReason, TEAMS, teamOf } from "./teams";

describe("teams", () => {
  it("maps every setting target to the team that applies it", () => {
    expect(teamOf("network").label).toBe("Network");
    expect(teamOf("switch").label).toBe("Network");
    expect(teamOf("filer").label).toBe("Storage");
    expect(teamOf("host").label).toBe("System administration");
    expect(teamOf("oracle").label).toBe("Database");
  });

  it("gives each target exactly one team", () => {
    const targets = TEAMS.flatMap((team) => team.targets);
    expect(new Set(targets).size).toBe(targets.length);
    expect([...targets].sort()).toEqual(["filer", "host", "network", "oracle", "switch"]);
  });

  it("groups items in team order, by target within a team, and drops empty teams", () => {
    const items = [
      { target: "oracle", key: "dnfs" },
      { target: "switch", key: "mtu" },
      { target: "host", key: "mtu" },
      { target: "network", key: "vlan" },
      { target: "host", key: "tcp_recv_hiwat" },
    ] as const;
    const groups = groupByTeam(items);
    expect(groups.map((g) => g.team.id)).toEqual(["network", "sysadmin", "database"]);
    expect(groups[0]?.items.map((i) => `${i.target}:${i.key}`)).toEqual(["network:vlan", "switch:mtu"]);
    expect(groups[1]?.items.map((i) => i.key)).toEqual(["mtu", "tcp_recv_hiwat"]);
    expect(groupByTeam([])).toEqual([]);
  });
});

describe("one-line reasons", () => {
  it("takes the first sentence", () => {
    expect(firstSentence("Hard mounts retry. bg lets the host boot.")).toBe("Hard mounts retry.");
    expect(firstSentence("  One sentence\n only ")).toBe("One sentence only");
  });

  it("does not stop at version numbers or abbreviations", () => {
    expect(firstSentence("Run 10.2.0.1 or later. Then more.")).toBe("Run 10.2.0.1 or later.");
    expect(firstSentence("Some options, e.g. actimeo=0, cost time. More.")).toBe("Some options, e.g. actimeo=0, cost time.");
    expect(firstSentence("It is set with ifconfig ... mtusize 9000, and kept. More.")).toBe("It is set with ifconfig ... mtusize 9000, and kept.");
  });

  it("keeps short sentences whole and cuts long ones at a word with an ellipsis", () => {
    expect(oneLineReason("Short. Second.")).toBe("Short.");
    const long = `${"word ".repeat(60).trim()}. Next sentence.`;
    const line = oneLineReason(long);
    expect(line.length).toBeLessThanOrEqual(140);
    expect(line.endsWith("word…")).toBe(true);
    expect(oneLineReason(long, 20)).toBe("word word word word…");
  });
});
