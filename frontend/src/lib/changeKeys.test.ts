import { describe, expect, it } from "vitest";
import { mountKey, settingKey } from "./changeKeys";

describe("change keys match the server's diff", () => {
  it("keys a per-volume setting with its volumes", () => {
    expect(
      settingKey({ action: "set", target: "filer", key: "minra", value: "off", mechanism: "ontap7_vol_option", applies_to: ["prod_data"], requires: "online", rules: [] }),
    ).toBe("filer minra [prod_data]");
  });
  it("keys a host setting with its scope", () => {
    expect(
      settingKey({ action: "set", target: "host", key: "tcp_xmit_hiwat", value: "65536", mechanism: "ndd", applies_to: [], requires: "online", scope: "/dev/tcp", rules: [] }),
    ).toBe("host tcp_xmit_hiwat (/dev/tcp)");
  });
  it("keys a mount by the roles it serves and its mount point", () => {
    expect(
      mountKey({ role: "redo", serves: ["redo", "control"], volume: "v", mount_point: "/u03/oralog/PROD", export: "f:/v", options: [], rules: [], option_rules: {} }),
    ).toBe("redo+control /u03/oralog/PROD");
  });
});
