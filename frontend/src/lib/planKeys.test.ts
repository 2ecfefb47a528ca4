import { describe, expect, it } from "vitest";
import type { PlanView } from "../api/client";
import { planKeys } from "./planKeys";

const MOUNT = { mount_point: "/u02/oradata/PROD", serves: ["data"] };
const OTHER = { mount_point: "/u02/oradata/PROD", serves: ["data"] };
const FINDING = { rule: "R", message: "m" };

describe("the server's item keys", () => {
  it("are read by item from the lists they align with, never rebuilt", () => {
    const plan = {
      mounts: [MOUNT],
      settings: [],
      findings: [FINDING],
      item_keys: { mounts: ["served key"], settings: [], findings: ["R: m"] },
    } as unknown as PlanView;
    const keys = planKeys(plan);
    expect(keys.mount(MOUNT as unknown as PlanView["mounts"][number])).toBe("served key");
    expect(keys.finding(FINDING as unknown as PlanView["findings"][number])).toBe("R: m");
    // An equal object that is not the plan's item has no key: the lookup is by the plan's items.
    expect(keys.mount(OTHER as unknown as PlanView["mounts"][number])).toBe("");
    expect(planKeys(plan)).toBe(keys);
  });

  it("are empty for a plan served before the keys were", () => {
    const plan = { mounts: [MOUNT], settings: [], findings: [] } as unknown as PlanView;
    expect(planKeys(plan).mount(MOUNT as unknown as PlanView["mounts"][number])).toBe("");
  });
});
