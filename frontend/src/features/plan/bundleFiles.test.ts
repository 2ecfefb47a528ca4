import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { readTextFile } from "../../lib/readTextFile";
import { groupFiles, highlight, languageFor, lineCount, readmeDescriptions, tabFor, unzipBundle, type BundleFile, type Language } from "./bundleFiles";

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
  "filer/az_netappfiles.txt": "filer",
  "filer/fsx/create_volume_prod_data.json": "filer",
  "terraform/anf.tf.json": "filer",
  "ansible/filer.yml": "filer",
  "ansible/filer_rollback.yml": "filer",
  "ansible/vars/ansible_oracle_dnfs.yml": "other",
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
    ["terraform/gcnv.tf.json", "", "json"],
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

  it("describes each file with the README's Files table, and leaves the others undescribed", () => {
    const zip = zipSync({
      "nasplan-prod/README.md": strToU8(readme),
      "nasplan-prod/host/vfstab.add": strToU8("# Lines for /etc/vfstab\n"),
      "nasplan-prod/oracle/alter_system.sql": strToU8("ALTER SYSTEM SET filesystemio_options='setall';\n"),
    });
    const described = Object.fromEntries(unzipBundle(zip).map((f) => [f.path, f.description]));
    expect(described).toEqual({
      "README.md": null,
      "host/vfstab.add": "the lines those scripts add, in the file's own format, for review or manual use",
      "oracle/alter_system.sql": "the parameters as ALTER SYSTEM statements",
    });
  });
});

// The shape backend/nasplan/renderers/bundle.py writes; its md() escapes \ ` * [ ] < > |.
const readme = [
  "# nasplan bundle for PROD",
  "",
  "## Order",
  "",
  "| `not/a/file.txt` | 1 | nobody | a table outside the Files section |",
  "",
  "## Files",
  "",
  "| file | phase | who | what |",
  "|---|---|---|---|",
  "| `MANIFEST.sha256` | all | everyone | SHA-256 of every other file but README.md: check with sh verify/check_bundle.sh |",
  "| `host/vfstab.add` | 2, 4 | Unix administrator | the lines those scripts add, in the file's own format, for review or manual use |",
  "| `oracle/alter_system.sql` | 5 | DBA | the parameters as ALTER SYSTEM statements |",
  "| `filer/odd.txt` | 3 | storage administrator | a \\| b, \\<tag\\> and \\*stars\\* |",
  "| `filer/empty.txt` | 3 | storage administrator |  |",
].join("\n");

describe("readmeDescriptions", () => {
  it("reads path → what from the Files table only, unescaping Markdown", () => {
    expect(Object.fromEntries(readmeDescriptions(readme))).toEqual({
      "MANIFEST.sha256": "SHA-256 of every other file but README.md: check with sh verify/check_bundle.sh",
      "host/vfstab.add": "the lines those scripts add, in the file's own format, for review or manual use",
      "oracle/alter_system.sql": "the parameters as ALTER SYSTEM statements",
      "filer/odd.txt": "a | b, <tag> and *stars*",
    });
  });

  it("finds nothing in a README without a Files table", () => {
    expect(readmeDescriptions("# Bundle\n\n| `a.txt` | 1 | DBA | text |\n").size).toBe(0);
  });
});

describe("groupFiles", () => {
  const file = (path: string): BundleFile => ({ path, text: "", tab: tabFor(path), language: "plaintext", description: null });

  it("groups by team in the tab order, keeps each group's file order, drops empty groups", () => {
    const groups = groupFiles(["README.md", "oracle/init.ora.add", "host/vfstab.add", "oracle/alter_system.sql", "plan.json"].map(file));
    expect(groups.map((g) => [g.label, g.files.map((f) => f.path)])).toEqual([
      ["Mount table", ["host/vfstab.add"]],
      ["Oracle", ["oracle/init.ora.add", "oracle/alter_system.sql"]],
      ["Other", ["README.md", "plan.json"]],
    ]);
  });
});

describe("lineCount", () => {
  it.each([
    ["", 1],
    ["one line", 1],
    ["one line\n", 1],
    ["two\nlines", 2],
    ["two\nlines\n", 2],
    ["a blank last line\n\n", 2],
  ])("%j has %i line(s)", (text, count) => {
    expect(lineCount(text)).toBe(count);
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

// BundlePreview.css replaces highlight.js's light-only github.css: every token class the bundle's
// languages produce needs a rule there (or is meant to keep the text colour), and every colour
// pair must read in both themes.
const previewCss = readTextFile(new URL("./BundlePreview.css", import.meta.url));

const samples: Record<Language, string> = {
  bash: [
    "#!/bin/sh",
    "# Mount the Oracle volumes",
    'set -eu; MNT="/u02/oradata"',
    "mount_all() {",
    '  for fs in $MNT ${LOG:-/u03}; do echo "mounting $fs $(date)"; mount -F nfs "$fs" || exit 1; done',
    "}",
    "[ -d /u02 ] && mount_all 'x' 42",
  ].join("\n"),
  ini: "; sysctl lines\n# comment\n[oracle]\nnet.core.rmem_max = 16777216\nname = \"prod\"\nenabled = true\n",
  json: '{"kb_version": "2024.1", "rules": [1, 2.5], "ok": true, "none": null}',
  markdown: [
    "<!--\nPlatform: PROD\n-->",
    "# Runbook",
    "## Step 1",
    "- **Mount** the _volumes_ with `mount -a`",
    "1. See [TR-3322](https://example.com/tr-3322)",
    "> Quoted note",
    "```sh\nmount -a\n```",
    "<b>html</b>",
  ].join("\n"),
  plaintext: "vol options oradata nosnap on\n",
  sql: "-- check dNFS\nSELECT svrname, COUNT(*) AS n FROM v$dnfs_servers WHERE id > 1 AND name = 'x' GROUP BY svrname;\nALTER SYSTEM SET filesystemio_options = SETALL SCOPE = SPFILE;\n",
  xml: '<?xml version="1.0"?>\n<!DOCTYPE html>\n<!-- runbook -->\n<html lang="en"><body class="x">Text &amp; more</body></html>',
  yaml: "---\n# Ansible play\n- hosts: db\n  become: true\n  vars:\n    rsize: 65536\n    mnt: \"/u02\"\n    tmpl: '{{ mount_opts }}'\n    esc: \"tab\\there\"\n    ref: &anchor !!str value\n",
  config: "* Lines for /etc/system\nset nfs:nfs3_max_threads=64\n# comment\n",
};

/** Token classes that deliberately keep the surrounding text colour. */
const uncoloured = new Set(["hljs-punctuation", "hljs-tag", "hljs-char", "hljs-function", "hljs-params", "hljs-property"]);

function tokenClasses(html: string): Set<string> {
  const classes = new Set<string>();
  for (const match of html.matchAll(/class="([^"]*)"/g)) {
    for (const name of (match[1] ?? "").split(/\s+/)) if (name.startsWith("hljs-")) classes.add(name);
  }
  return classes;
}

/** WCAG 2 relative luminance and contrast ratio of #rrggbb colours. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

describe("BundlePreview.css", () => {
  const styled = new Set([...previewCss.matchAll(/\.(hljs-[\w-]+)/g)].map((m) => m[1] ?? ""));

  it.each(Object.keys(samples) as Language[])("has a rule for every token class in %s files", (language) => {
    const classes = [...tokenClasses(highlight(samples[language], language))];
    expect(classes.filter((name) => !styled.has(name) && !uncoloured.has(name))).toEqual([]);
  });

  it("highlights the samples (so the check above sees real tokens)", () => {
    const all = new Set((Object.keys(samples) as Language[]).flatMap((language) => [...tokenClasses(highlight(samples[language], language))]));
    for (const name of ["hljs-keyword", "hljs-string", "hljs-comment", "hljs-number", "hljs-section", "hljs-attr", "hljs-built_in", "hljs-title", "hljs-name", "hljs-bullet", "hljs-literal", "hljs-variable", "hljs-meta"]) {
      expect(all).toContain(name);
    }
  });

  it("gives every colour pair 4.5:1 against the preview background in both themes", () => {
    // The background is --color-white: #fff in light mode, #141d30 in dark mode (index.css).
    expect(previewCss).toMatch(/\.hljs \{[^}]*background: var\(--color-white\)/);
    const pairs = [...previewCss.matchAll(/light-dark\((#[0-9a-f]{6}), (#[0-9a-f]{6})\)/gi)];
    expect(pairs.length).toBeGreaterThanOrEqual(9);
    for (const [, light, dark] of pairs) {
      expect(contrast(light ?? "", "#ffffff"), `${light} on #fff`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(dark ?? "", "#141d30"), `${dark} on #141d30`).toBeGreaterThanOrEqual(4.5);
    }
  });
});
