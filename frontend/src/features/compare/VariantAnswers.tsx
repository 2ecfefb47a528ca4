// A variant's answers that may differ from the base: the form of the usual levers, then any other
// answer a link changed, each with a way to undo it.
import type { Catalog } from "../../api/client";
import { TextField } from "../../components/Fields";
import { fieldAt } from "../../lib/answerFields";
import type { Draft } from "../../lib/draft";
import { AnswerInput } from "../wizard/AnswerInput";
import { FIELD_LABELS, type Patch, type Variant, autoLabel, draftValue, setAnswer } from "./model";

/** The answers the variant form offers; others may still arrive in a link. */
const LEVERS = [
  "oracle.dnfs",
  "network.jumbo_frames",
  "network.nic_gbps",
  "network.nic_count",
  "oracle.workload",
  "oracle.version",
  "filer.os_version",
];

function shownValue(draft: Draft, key: string): string {
  const value = draftValue(draft, key);
  if (typeof value === "boolean") return value ? "on" : "off";
  return value === undefined || value === "" ? "(none)" : value;
}

interface VariantAnswersProps {
  index: number;
  base: Draft;
  variant: Variant;
  /** The base with the variant's changes applied. */
  draft: Draft;
  /** The variant's changes that differ from the base. */
  changed: Patch;
  catalog: Catalog;
  /** What is wrong with an answer, found in the browser or refused by the server. */
  problem: (key: string) => string | undefined;
  onChange: (variant: Variant) => void;
}

export function VariantAnswers({ index, base, variant, draft, changed, catalog, problem, onChange }: VariantAnswersProps) {
  const hint = (key: string) => (key in changed ? `Changed; base: ${shownValue(base, key)}` : undefined);
  const set = (key: string, value: string | boolean) => onChange({ ...variant, patch: setAnswer(base, variant.patch, key, value) });
  const others = Object.keys(changed).filter((key) => !LEVERS.includes(key));
  const testId = (key: string) => `var${index + 1}.${key}`;

  return (
    <>
      <fieldset className="mt-3">
        <legend className="text-sm font-medium text-slate-700">Answers that differ from the base</legend>
        <div className="mt-1 grid grid-cols-1 gap-x-4 gap-y-3 sm:grid-cols-2 2xl:grid-cols-4">
          {LEVERS.map((key) => {
            const field = fieldAt(key);
            const error = problem(key);
            return field ? (
              <AnswerInput
                key={key}
                field={field}
                draft={draft}
                catalog={catalog}
                errors={error === undefined ? {} : { [key]: error }}
                set={(s, f, value) => set(`${s}.${f}`, value)}
                label={field.label}
                name={testId(key)}
                hint={hint(key) ?? ""}
              />
            ) : null;
          })}
          <TextField
            label="Name of the variant"
            name={testId("label")}
            value={variant.label}
            placeholder={autoLabel(base, variant.patch)}
            error={problem("label")}
            hint="Optional; named after its changes when empty."
            onChange={(value) => onChange({ ...variant, label: value })}
          />
        </div>
      </fieldset>
      {others.length > 0 && (
        <div className="mt-3 text-sm">
          <p className="font-medium">Also changed by the link:</p>
          <ul className="mt-1 space-y-1">
            {others.map((key) => (
              <li key={key} className="flex flex-wrap items-center gap-2">
                <span className="wrap-anywhere">
                  {FIELD_LABELS[key] ?? key}: {shownValue(base, key)} → {shownValue(draft, key)}
                </span>
                {problem(key) && <span className="text-xs text-red-700">{problem(key)}</span>}
                <button
                  type="button"
                  className="rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-100"
                  onClick={() => onChange({ ...variant, patch: setAnswer(base, variant.patch, key, draftValue(base, key) ?? "") })}
                >
                  Undo <span className="sr-only">{FIELD_LABELS[key] ?? key}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}
