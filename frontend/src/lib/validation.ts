// Field checks that mirror the backend's (domain/platform.py), so bad input is caught in the
// browser with a message that says how to fix it, and never sent.
import { z } from "zod";
import { CLOUD_VENDORS, MAX_PATHS, THROUGHPUT_VENDORS, type Draft, type Section } from "./draft";

const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
const HOSTNAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);

const hostName = z
  .string()
  .max(253, "at most 253 characters")
  .regex(HOSTNAME, "use a host name such as filer01 or filer01.example.com: letters, digits and hyphens separated by dots, no spaces");
const optionalHostName = z.union([z.literal(""), hostName]);
const interfaceName = z.union([
  z.literal(""),
  z.string().regex(/^[A-Za-z][A-Za-z0-9]{0,11}$/, "use an interface name such as ce0, eth1 or e0a"),
]);
const wholeNumber = (min: number, max: number, what: string) =>
  z
    .string()
    .regex(/^\d+$/, `enter ${what} as a whole number`)
    .refine((v) => Number(v) >= min && Number(v) <= max, `${what} must be between ${min} and ${max}`);
const optionalWhole = (min: number, max: number, what: string) =>
  z.union([z.literal(""), wholeNumber(min, max, what)]);

const OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);
const CIDR = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}/(?:3[0-2]|[12]?[0-9])$`);
const storageName = z.union([
  z.literal(""),
  z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,46}$/, "use a name such as svm_prod or aggr1: letters, digits, _ . - starting with a letter or _"),
]);
const optionalDecimal = (what: string) =>
  z.union([z.literal(""), z.string().regex(/^\d{1,7}(\.\d{1,3})?$/, `enter ${what} as a number, e.g. 12 or 0.5`)]);

function pathSchemas(): Record<string, z.ZodType> {
  const schemas: Record<string, z.ZodType> = {};
  for (let n = 1; n <= MAX_PATHS; n += 1) {
    schemas[`p${n}_host_interface`] = interfaceName;
    schemas[`p${n}_filer_interface`] = interfaceName;
    schemas[`p${n}_host_address`] = z.union([
      z.literal(""),
      z.string().regex(CIDR, "use the address with its prefix length, such as 192.168.10.11/24"),
    ]);
    schemas[`p${n}_filer_address`] = z.union([
      z.literal(""),
      z.string().regex(IPV4, "use a dotted IPv4 address such as 192.168.10.21"),
    ]);
  }
  return schemas;
}

export const FIELD_SCHEMAS: { [S in Section]: Partial<Record<keyof Draft[S], z.ZodType>> } = {
  host: {
    os_version: z.string().min(1, "choose the OS release"),
    memory_gb: optionalWhole(1, 65536, "memory (GB)"),
    hostname: optionalHostName,
    nic_interface: interfaceName,
  },
  network: {
    nic_count: wholeNumber(1, 16, "the number of NICs"),
    switch_hops: wholeNumber(0, 16, "the number of switches"),
    router_hops: wholeNumber(0, 16, "the number of routers"),
    rtt_us: z.union([
      z.literal(""),
      z
        .string()
        .regex(/^\d+(\.\d+)?$/, "enter the round trip in microseconds, e.g. 450")
        .refine((v) => Number(v) > 0 && Number(v) <= 1_000_000, "between 1 and 1,000,000 us"),
    ]),
  },
  oracle: {
    version: z
      .string()
      .regex(/^\d{1,2}(\.(\d{1,3}|x)){0,4}$/, "use a dotted release such as 9.2.0.4, 11.2.0.4 or 19.21"),
    rac_nodes: optionalWhole(2, 64, "cluster nodes"),
    instances: wholeNumber(1, 64, "instances on the host"),
  },
  filer: {
    model: z.union([z.literal(""), z.string().regex(/^[A-Za-z0-9][A-Za-z0-9 ._/-]{0,39}$/, "use letters, digits, spaces and . _ / - only")]),
    os_version: z.union([
      z.literal(""),
      z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,19}$/, "use a release name such as 7.3, 9.14.1 or 2009.Q3"),
    ]),
    interface: interfaceName,
    capacity_tib: z.union([
      z.literal(""),
      z.string().regex(/^\d{1,4}(\.\d{1,3})?$/, "use the provisioned capacity in TiB, e.g. 8 or 0.5"),
    ]),
  },
  handover: {
    svm: storageName,
    aggregate: storageName,
    capacity_pool: storageName,
    broadcast_domain: storageName,
    cluster_nodes: z.union([
      z.literal(""),
      z.string().refine(
        (v) => v.split(/[\s,]+/).filter(Boolean).every((n) => HOSTNAME.test(n)),
        "list host names separated by commas, e.g. dbnode1, dbnode2",
      ),
    ]),
    client_subnet: z.union([z.literal(""), z.string().regex(CIDR, "use a network in CIDR form, such as 192.168.10.0/24")]),
    nfs4_id_domain: optionalHostName,
    oracle_uid: optionalWhole(1, 2_147_483_646, "the user id"),
    oracle_gid: optionalWhole(1, 2_147_483_646, "the group id"),
    ...pathSchemas(),
  },
  sizing: {
    database_gb: optionalDecimal("the datafiles' size in GB"),
    growth_pct_per_year: optionalDecimal("the yearly growth in %"),
    horizon_years: optionalWhole(0, 30, "the horizon in years"),
    redo_mb_per_s: optionalDecimal("the peak redo rate in MB/s"),
    redo_gb_per_day: optionalDecimal("the redo per day in GB"),
    archive_retention_days: optionalWhole(1, 3650, "the archive retention in days"),
    snapshot_retention_days: optionalWhole(1, 3650, "the snapshot retention in days"),
    daily_change_pct: optionalDecimal("the daily change in %"),
    oracle_homes: optionalWhole(1, 64, "the number of Oracle homes"),
    oracle_home_gb: optionalDecimal("one Oracle home's size in GB"),
    crs_gb: optionalDecimal("the Clusterware files' size in GB"),
  },
  layout: {
    filer_host: hostName,
    db_name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,7}$/, "use 1-8 letters, digits or _ starting with a letter, e.g. PROD"),
  },
};

export type FieldErrors = Record<string, string>;

/** Every problem in the answers, keyed `section.field`. Empty means the draft can be planned. */
export function validateDraft(draft: Draft, filerReleaseRequired: boolean): FieldErrors {
  const errors: FieldErrors = {};
  for (const [section, fields] of Object.entries(FIELD_SCHEMAS) as [Section, Record<string, z.ZodType>][]) {
    const values = draft[section] as unknown as Record<string, unknown>;
    for (const [field, schema] of Object.entries(fields)) {
      const result = schema.safeParse(values[field]);
      if (!result.success) errors[`${section}.${field}`] = result.error.issues[0]?.message ?? "invalid";
    }
  }
  if (filerReleaseRequired && !draft.filer.os_version.trim()) {
    errors["filer.os_version"] = "this vendor needs its software release, e.g. 7.3 or 9.14.1";
  }
  if (CLOUD_VENDORS.has(draft.filer.vendor)) {
    if (!draft.filer.service_level) errors["filer.service_level"] = "choose the capacity pool's service level";
    const tib = Number(draft.filer.capacity_tib);
    if (!errors["filer.capacity_tib"] && !(tib > 0 && tib <= 2048)) {
      errors["filer.capacity_tib"] = "give the provisioned capacity, more than 0 and at most 2048 TiB";
    }
  }
  if (THROUGHPUT_VENDORS.has(draft.filer.vendor) && !draft.filer.throughput_mb_s) {
    errors["filer.throughput_mb_s"] = "choose the file system's throughput capacity";
  }
  return errors;
}

/** Which wizard step shows a field. */
export const STEP_OF_SECTION: Record<Section, number> = {
  host: 0,
  network: 1,
  oracle: 2,
  filer: 3,
  layout: 4,
  handover: 5,
  sizing: 5,
};
