import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { highlight, languageFor, tabFor, unzipBundle } from "./bundleFiles";

// Real paths from the tr3322-lab (Solaris), current-linux-ontap, fawcett-lab, example-aix and
// example-linux-knfs-7mode bundles.
const expected: Record<string, string> = {
  "MANIFEST.sha256": "other",
  "README.md": "other",
  "RUNBOOK.html": "other",
  "RUNBOOK.md": "other",
  "plan.json": "other",
  "ansible/inventory.ini": "other",
  "ansible/site.yml": "other",
  "ansible/templates/oranfstab.j2": "other",
  "host/vfstab.add": "mount",
  "host/fstab.add": "mount",
  "host/filesystems.add": "mount",
  "host/90-nasplan-prod.conf": "kernel",
  "host/sysctl.conf.add": "kernel",
  "host/system.add": "kernel",
  "host/ce.conf.add": "kernel",
  "host/nasplan_ndd_prod": "kernel",
  "host/mounts.sh": "scripts",
  "host/network.sh": "scripts",
  "host/tuning.sh": "scripts",
  "filer/commands.txt": "filer",
  "filer/shares.txt": "filer",
  "oracle/alter_system.sql": "oracle",
  "oracle/init.ora.add": "oracle",
  "oracle/oranfstab": "oracle",
  "oracle/enable_dnfs.sh": "oracle",
  "verify/verify_host.sh": "scripts",
  "verify/verify_oracle.sql": "scripts",
  "verify/filer_checks.txt": "scripts",
  "rollback/host_rollback.sh": "scripts",
  "rollback/oracle_rollback.sql": "scripts",
  "rollback/filer_rollback.txt": "scripts",
};

describe("tabFor", () => {
  it.each(Object.entries(expected))("puts %s under %s", (path, tab) => {
    expect(tabFor(path)).toBe(tab);
  });
});

describe("languageFor", () => {
  it.each([
    ["host/tuning.sh", "", "bash"],
    ["oracle/alter_system.sql", "", "sql"],
    ["plan.json", "", "json"],
    ["README.md", "", "markdown"],
    ["ansible/site.yml", "", "yaml"],
    ["ansible/inventory.ini", "", "ini"],
    ["host/90-nasplan-prod.conf", "", "ini"],
    ["host/sysctl.conf.add", "", "ini"],
    ["oracle/init.ora.add", "", "ini"],
    ["RUNBOOK.html", "", "xml"],
    ["host/nasplan_ndd_prod", "#!/sbin/sh\n# Start-up script\n", "bash"],
    ["host/other_script", "#!/usr/bin/env bash\n", "bash"],
    ["host/vfstab.add", "# Lines for /etc/vfstab\n", "config"],
    ["host/system.add", "* Lines for /etc/system\n", "config"],
    ["host/filesystems.add", "* Lines for /etc/filesystems\n/oradata:\n", "config"],
    ["filer/commands.txt", "# Data ONTAP commands\n", "config"],
    ["MANIFEST.sha256", "abc  README.md\n", "plaintext"],
  ])("%s is %s", (path, text, language) => {
    expect(languageFor(path, text)).toBe(language);
  });
});

describe("unzipBundle", () => {
  it("drops the zip's top folder, reads every file as text, README.md first", () => {
    const zip = zipSync({
      "nasplan-prod-abc/MANIFEST.sha256": strToU8("0123  README.md\n"),
      "nasplan-prod-abc/README.md": strToU8("# Bundle\n"),
      "nasplan-prod-abc/host/vfstab.add": strToU8("filer01:/vol/oradata - /oradata nfs - yes rw\n"),
      "nasplan-prod-abc/oracle/alter_system.sql": strToU8("ALTER SYSTEM SET filesystemio_options='setall';\n"),
    });
    const files = unzipBundle(zip);
    expect(files.map((f) => [f.path, f.tab, f.language])).toEqual([
      ["README.md", "other", "markdown"],
      ["MANIFEST.sha256", "other", "plaintext"],
      ["host/vfstab.add", "mount", "plaintext"], // no comment line in this one
      ["oracle/alter_system.sql", "oracle", "sql"],
    ]);
    expect(files[3]?.text).toContain("setall");
  });
});

describe("highlight", () => {
  it.each(["plaintext", "config", "bash", "markdown", "xml", "sql"] as const)("escapes markup in %s files", (language) => {
    const html = highlight("<script>alert(1)</script>\n<img src=x onerror=alert(2)>", language);
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;");
    expect(html.replace(/<\/?span[^>]*>/g, "")).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("marks comment lines in configuration files, and nothing else", () => {
    const html = highlight("* Lines for /etc/system\nset nfs:nfs3_max_threads=64 # not a comment\n", "config");
    expect(html).toBe('<span class="hljs-comment">* Lines for /etc/system</span>\nset nfs:nfs3_max_threads=64 # not a comment\n');
  });

  it("keeps the Markdown header comment one comment", () => {
    const html = highlight("<!--\nPlatform: DB_NAME PROD.\nWhy: RUNBOOK_md\n-->\n# Title\n", "markdown");
    expect(html).toContain('<span class="hljs-comment">&lt;!--\nPlatform: DB_NAME PROD.\nWhy: RUNBOOK_md\n--&gt;</span>');
    expect(html).not.toContain("hljs-emphasis");
    expect(html).toContain('<span class="hljs-section"># Title</span>');
  });

  it("marks shell comments and keywords", () => {
    const html = highlight("# comment\nif true; then echo hi; fi\n", "bash");
    expect(html).toContain('<span class="hljs-comment"># comment</span>');
    expect(html).toContain('<span class="hljs-keyword">if</span>');
  });
});
