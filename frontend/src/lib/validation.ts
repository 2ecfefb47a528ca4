// Field checks generated from the backend's own limits, patterns and messages
// (the answer table, lib/answerFields.ts: domain/platform.py's limits with knowledge/catalog/fields.yaml), so bad
// input is caught in the browser with the message the API would give, and never sent. Only what
// spans fields, or how the wizard collects a value, is written here by hand.
import { z } from "zod";
import { ANSWER_FIELDS, fieldAt, type AnswerField } from "./answerFields";
import { askedIn, DEFAULT_DRAFT, MAX_PATHS, type Draft, type Section } from "./draft";

/** The answer table's rows (lib/answerFields.ts), as the field checks read them. */
export const FIELD_ROWS: readonly AnswerField[] = ANSWER_FIELDS;

const wholeNumber = (min: number, max: number, what: string) =>
  z
    .string()
    .regex(/^\d+$/, `enter ${what} as a whole number`)
    .refine((v) => Number(v) >= min && Number(v) <= max, `${what} must be between ${min} and ${max}`);

function decimal(row: AnswerField, what: string): z.ZodType {
  const above = row.exclusive_minimum ?? undefined;
  const least = row.minimum ?? undefined;
  const most = row.maximum ?? undefined;
  const lower = above !== undefined ? `more than ${above}` : least !== undefined ? `at least ${least}` : null;
  const range = [lower, most !== undefined ? `at most ${most}` : null].filter(Boolean).join(" and ");
  return z
    .string()
    .regex(/^\d{1,7}(\.\d{1,3})?$/, `enter ${what} as a number, e.g. 12 or 0.5`)
    .refine(
      (v) =>
        (above === undefined || Number(v) > above) && (least === undefined || Number(v) >= least) && (most === undefined || Number(v) <= most),
      `${what} must be ${range}`,
    );
}

/** The check of one typed answer; null for choices (selects, ticks), which cannot be mistyped. */
export function checkOf(row: AnswerField): z.ZodType | null {
  if ((row.enum ?? undefined) !== undefined || row.type === "boolean") return null;
  const what = row.what ?? row.path;
  let schema: z.ZodType;
  if (row.type === "integer") schema = wholeNumber(row.minimum ?? 0, row.maximum ?? Number.MAX_SAFE_INTEGER, what);
  else if (row.type === "number") schema = decimal(row, what);
  else if (row.type === "string" && row.pattern && row.error) {
    const pattern = new RegExp(row.pattern);
    const text = z.string().regex(pattern, row.error);
    const most = row.max_length ?? undefined;
    schema = most !== undefined ? text.max(most, `at most ${most} characters`) : text;
  } else return null;
  return row.optional ? z.union([z.literal(""), schema]) : schema;
}


/** The generated checks by draft section and field; the path fields repeat per storage path. */
function generatedSchemas(): { [S in Section]: Record<string, z.ZodType> } {
  const out = { host: {}, network: {}, oracle: {}, filer: {}, layout: {}, handover: {}, sizing: {} } as {
    [S in Section]: Record<string, z.ZodType>;
  };
  for (const row of FIELD_ROWS) {
    const check = checkOf(row);
    const dot = row.path.indexOf(".");
    const section = row.path.slice(0, dot);
    const field = row.path.slice(dot + 1);
    if (!check || dot < 0 || !(section in out)) continue;
    const fields = out[section as Section];
    if (field.startsWith("paths[].")) {
      for (let n = 1; n <= MAX_PATHS; n += 1) fields[`p${n}_${field.slice("paths[].".length)}`] = check;
    } else if (field in DEFAULT_DRAFT[section as Section]) {
      fields[field] = check;
    }
  }
  return out;
}

const hostNames = fieldAt("handover.cluster_nodes[]");
const hostName = hostNames?.pattern ? new RegExp(hostNames.pattern) : /^\S+$/;

export const FIELD_SCHEMAS: { [S in Section]: Record<string, z.ZodType> } = (() => {
  const schemas = generatedSchemas();
  // Chosen from the catalog's list, not typed: say so when it is missing.
  schemas.host.os_version = z.string().min(1, "choose the OS release");
  // Typed as one line of names (the API takes a list).
  schemas.handover.cluster_nodes = z.union([
    z.literal(""),
    z.string().refine(
      (v) => v.split(/[\s,]+/).filter(Boolean).every((n) => hostName.test(n)),
      "list host names separated by commas, e.g. dbnode1, dbnode2",
    ),
  ]);
  return schemas;
})();

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
  if (askedIn(draft, "filer.service_level")) {
    if (!draft.filer.service_level) errors["filer.service_level"] = "choose the capacity pool's service level";
    const tib = Number(draft.filer.capacity_tib);
    if (!errors["filer.capacity_tib"] && !(tib > 0 && tib <= 2048)) {
      errors["filer.capacity_tib"] = "give the provisioned capacity, more than 0 and at most 2048 TiB";
    }
  }
  if (askedIn(draft, "filer.throughput_mb_s") && !draft.filer.throughput_mb_s) {
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

/** The field's row in platform-fields.json: the storage path fields (`p2_host_address`) share one. */
export function rowPathOf(key: string): string {
  const [section, field] = key.split(".", 2) as [string, string];
  const perPath = /^p\d+_(.+)$/.exec(field);
  if (perPath) return `${section}.paths[].${perPath[1]}`;
  return fieldAt(`${section}.${field}[]`) !== undefined ? `${section}.${field}[]` : `${section}.${field}`;
}

// Optional in the platform, but required by the vendor chosen (validateDraft checks them).
const REQUIRED_BY_CHOICE = new Set(["filer.os_version", "filer.service_level", "filer.capacity_tib", "filer.throughput_mb_s"]);

// A list the platform may leave out, whose rows describe one item (required within the list).
const OPTIONAL_LISTS = new Set(["handover.cluster_nodes"]);

/**
 * Problems split in two: those that stop the plan (a required answer missing or wrong, or one
 * with a default, which leaving out would silently replace), and optional answers the wizard
 * starts empty and the user typed wrongly, which the plan leaves out until they are corrected, so
 * one bad optional field (a LIF name, an address) never holds back the plan, Save or the downloads.
 */
export function splitErrors(errors: FieldErrors): { blocking: FieldErrors; leftOut: FieldErrors } {
  const blocking: FieldErrors = {};
  const leftOut: FieldErrors = {};
  for (const [key, message] of Object.entries(errors)) {
    const [section, field] = key.split(".", 2) as [Section, string];
    const startsEmpty = ((DEFAULT_DRAFT[section] as unknown as Record<string, unknown>)[field] ?? "") === "";
    const optional = OPTIONAL_LISTS.has(key) || fieldAt(rowPathOf(key))?.optional === true;
    if (optional && startsEmpty && !REQUIRED_BY_CHOICE.has(key)) leftOut[key] = message;
    else blocking[key] = message;
  }
  return { blocking, leftOut };
}

/** The draft with the given answers blanked: what is planned while they are wrong. */
export function withoutAnswers(draft: Draft, keys: readonly string[]): Draft {
  const next = structuredClone(draft);
  for (const key of keys) {
    const [section, field] = key.split(".", 2) as [Section, string];
    (next[section] as unknown as Record<string, unknown>)[field] = "";
  }
  return next;
}
