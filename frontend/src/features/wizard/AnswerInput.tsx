// One platform answer in the wizard, drawn from its row of the fields table (widget, label, hint,
// choices, suggestions, which answers it depends on). Only what spans fields is passed in by hand.
import type { Catalog } from "../../api/client";
import { CheckField, SelectField, TextField } from "../../components/Fields";
import { choicesOf, fieldsOf, stepLabel, suggestionsOf, type AnswerField } from "../../lib/answerFields";
import { managedNetwork } from "../../lib/constraints";
import { answerOf, askedIn, draftKeyOf, type Draft, type Section } from "../../lib/draft";
import type { StepProps } from "./steps";

/** Whether the wizard asks this answer for this draft. */
export function asked(field: AnswerField, draft: Draft, catalog: Catalog): boolean {
  return askedIn(draft, field.path, managedNetwork(catalog, draft.filer.vendor));
}

export interface AnswerInputProps extends StepProps {
  field: AnswerField;
  /** The draft's key when it is not the field's own (a storage path's flat key). */
  draftKey?: [Section, string];
  label?: string;
  /** The input's name when the same answer is asked more than once on a page (a variant's). */
  name?: string;
  hint?: string | undefined;
  disabled?: boolean;
}

export function AnswerInput({ field, draft, catalog, errors, set, draftKey, label, name: inputName, hint, disabled = false }: AnswerInputProps) {
  const key = draftKey ?? draftKeyOf(field.path);
  if (key === null) return null;
  const [section, name] = key;
  const value = (draft[section] as unknown as Record<string, string | boolean>)[name];
  const path = `${section}.${name}`;
  const common = {
    label: label ?? stepLabel(field),
    name: inputName ?? path,
    hint: hint ?? field.hint ?? undefined,
  };
  const onChange = (next: string | boolean) => set(section, name as keyof Draft[Section] & string, next);
  if (field.widget === "check") {
    return <CheckField {...common} checked={value === true && !disabled} disabled={disabled} onChange={onChange} />;
  }
  const text = typeof value === "string" ? value : "";
  if (field.widget === "select") {
    return (
      <SelectField
        {...common}
        wide={field.wide}
        value={text}
        error={errors[path]}
        onChange={onChange}
        options={withCurrent(choicesOf(field, catalog, (other) => answerOf(draft, other)), text)}
      />
    );
  }
  const inputMode = field.type === "integer" ? "numeric" : field.type === "number" ? "decimal" : undefined;
  const list = suggestionsOf(field, catalog, draft.filer.vendor);
  return (
    <TextField
      {...common}
      value={text}
      error={errors[path]}
      onChange={onChange}
      {...(inputMode ? { inputMode } : {})}
      {...(list ? { list } : {})}
    />
  );
}

/** The choices, with the current answer kept visible when a link carried one the catalog lacks. */
function withCurrent(choices: { value: string; label: string }[], current: string): { value: string; label: string }[] {
  if (current === "" || choices.some((choice) => choice.value === current)) return choices;
  return [...choices, { value: current, label: `${current} (not one nasplan knows)` }];
}

/** Every answer a step (or a hand-over group) asks for this draft, in the table's order, with
 * the hints and locks that span fields given by path. */
export function StepAnswers({
  step,
  group,
  hints = {},
  locked = {},
  ...props
}: StepProps & {
  step: NonNullable<AnswerField["step"]>;
  group?: string;
  hints?: Readonly<Record<string, string | undefined>>;
  locked?: Readonly<Record<string, boolean>>;
}) {
  return (
    <>
      {fieldsOf(step, group)
        .filter((field) => asked(field, props.draft, props.catalog))
        .map((field) => (
          <AnswerInput key={field.path} {...props} field={field} hint={hints[field.path]} disabled={locked[field.path] === true} />
        ))}
    </>
  );
}
