// Every platform answer as GET /api/v1/catalog serves it (`fields`), from knowledge/catalog/fields.yaml
// joined with the platform model's limits; scripts/gen-client.sh writes the same table to
// src/api/platform-fields.json so the wizard's opening answers, labels and checks need no request.
import platformFields from "../api/platform-fields.json";
import type { Catalog, Schemas } from "../api/client";

export type AnswerField = Schemas["AnswerField"];
export type AnswerValue = string | number | boolean;

export const ANSWER_FIELDS: readonly AnswerField[] = platformFields as AnswerField[];

const BY_PATH = new Map(ANSWER_FIELDS.map((field) => [field.path, field]));

/** The answer at a path of platform-fields.json ("handover.paths[].host_address"). */
export function fieldAt(path: string): AnswerField | undefined {
  return BY_PATH.get(path);
}

/** The fields a wizard step asks, in order (a hand-over group when given). */
export function fieldsOf(step: NonNullable<AnswerField["step"]>, group?: string): AnswerField[] {
  return ANSWER_FIELDS.filter((field) => field.step === step && (group === undefined || field.group === group));
}

/** The label inside its step: "Release", "Memory per host (GB)". */
export function stepLabel(field: AnswerField): string {
  if (field.in_step) return field.in_step;
  return field.unit ? `${field.label} (${field.unit})` : field.label;
}

/** The wizard's opening answer, as the draft keeps it (text, or a tick). */
export function openingOf(field: AnswerField): string | boolean {
  if (field.widget === "check") return field.opening === true;
  return field.opening === undefined || field.opening === null ? "" : String(field.opening);
}

/** A fixed option's line in a select ("Migration: the database moves here …"). */
export function optionLine(option: Schemas["FieldOption"]): string {
  return option.detail ? `${option.label}: ${option.detail}` : option.label;
}

/** Whether the answer is asked given the others: `answerOf` reads another answer by path;
 * `managed` says whether the cloud provider's network is the path (unknown without a catalog,
 * and then taken as not managed). */
export function isAsked(field: AnswerField, answerOf: (path: string) => AnswerValue | undefined, managed = false): boolean {
  return Object.entries(field.shown_when).every(([path, wanted]) => {
    if (path === "managed_network") return managed === wanted;
    const answer = answerOf(path);
    const allowed = Array.isArray(wanted) ? wanted : [wanted];
    return allowed.some((value) => value === answer || String(value) === String(answer));
  });
}

/** The choices of a select, read from the catalog or the field's own options. */
export function choicesOf(field: AnswerField, catalog: Catalog, answerOf: (path: string) => AnswerValue | undefined): { value: string; label: string }[] {
  const vendor = catalog.filers[String(answerOf("filer.vendor"))];
  const os = catalog.os[String(answerOf("host.os"))];
  const listed = ((): { value: string; label: string }[] => {
    switch (field.choices) {
      case "os":
        return Object.entries(catalog.os).map(([id, entry]) => ({ value: id, label: entry.label }));
      case "os_releases":
        return (os?.releases ?? []).map((release) => ({ value: release.id, label: release.label }));
      case "arches":
        return (os?.arches ?? []).map((arch) => ({ value: arch, label: arch }));
      case "nic_speeds":
        return catalog.network.nic_speeds.map((speed) => ({ value: String(speed.gbps), label: speed.label }));
      case "switch_kinds":
        return catalog.network.switch_kinds.map((kind) => ({ value: kind.id, label: kind.label }));
      case "vendors":
        return Object.entries(catalog.filers).map(([id, entry]) => ({ value: id, label: entry.label }));
      case "service_levels":
        return (vendor?.service_levels ?? []).map((level) => ({ value: level, label: level.charAt(0).toUpperCase() + level.slice(1) }));
      case "throughput_capacities":
        return (vendor?.throughput_capacities ?? []).map((mbps) => ({ value: String(mbps), label: `${mbps.toLocaleString("en")} MBps` }));
      default:
        return (field.options ?? []).map((option) => ({ value: option.value, label: optionLine(option) }));
    }
  })();
  return field.empty ? [{ value: "", label: field.empty }, ...listed] : listed;
}

/** What a text field suggests as you type. */
export function suggestionsOf(field: AnswerField, catalog: Catalog, vendorId: string): string[] | undefined {
  const vendor = catalog.filers[vendorId];
  switch (field.suggest) {
    case "oracle_examples":
      return catalog.oracle.examples;
    case "filer_models":
      return vendor?.models ?? [];
    case "filer_releases":
      return (vendor?.families ?? []).flatMap((family) => family.known);
    default:
      return undefined;
  }
}

/** A chosen value in words ("oltp" → "OLTP (transactions)"), or undefined when it has none. */
export function choiceLabel(field: AnswerField, value: string, catalog?: Catalog): string | undefined {
  const option = field.options?.find((o) => o.value === value);
  if (option) return option.label;
  if (!catalog || field.choices === undefined || field.choices === null) return undefined;
  if (field.choices === "os_releases") {
    return Object.values(catalog.os)
      .flatMap((os) => os.releases)
      .find((release) => release.id === value)?.label;
  }
  if (field.choices !== "os" && field.choices !== "vendors" && field.choices !== "nic_speeds" && field.choices !== "switch_kinds") return undefined;
  return choicesOf(field, catalog, () => undefined).find((choice) => choice.value === value)?.label;
}
