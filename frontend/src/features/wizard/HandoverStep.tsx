// The Hand-over & sizing step: the names, storage paths and sizing inputs the runbook needs.
import { fieldsOf } from "../../lib/answerFields";
import { managedNetwork } from "../../lib/constraints";
import { pathCount } from "../../lib/draft";
import { AnswerInput, asked, StepAnswers } from "./AnswerInput";
import { grid, type StepProps } from "./steps";

const LATER = "Optional: leave blank to fill in later; the runbook lists what is left.";

export function HandoverStep(props: StepProps) {
  const { draft, catalog } = props;
  const managed = managedNetwork(catalog, draft.filer.vendor);
  const paths = Array.from({ length: pathCount(draft) }, (_, i) => i + 1);
  // With one path the hosts reach the filer by its name: no filer address is asked.
  const pathFields = fieldsOf("handover", "path").filter(
    (field) => asked(field, draft, catalog) && (paths.length > 1 || field.path !== "handover.paths[].filer_address"),
  );
  return (
    <div className="space-y-5">
      <p className="text-sm text-slate-700">{LATER}</p>
      <StepAnswers {...props} step="handover" group="change" />
      <fieldset>
        <legend className="mb-2 text-sm font-semibold text-slate-900">Names</legend>
        <div className={grid}>
          <StepAnswers {...props} step="handover" group="names" />
        </div>
      </fieldset>
      {paths.map((n) => (
        <fieldset key={n}>
          <legend className="mb-2 text-sm font-semibold text-slate-900">Storage path {n}</legend>
          <div className={grid}>
            {pathFields.map((field) => {
              const name = field.path.slice(field.path.lastIndexOf(".") + 1);
              return <AnswerInput key={name} {...props} field={field} draftKey={["handover", `p${n}_${name}`]} label={`Path ${n}: ${field.label}`} />;
            })}
          </div>
          {n === 1 && (paths.length === 1 || managed) && (
            <p className="mt-2 text-xs text-slate-600">
              {paths.length === 1 && `With one path the hosts reach the filer by its name, ${draft.layout.filer_host}: no filer address is asked. `}
              {managed && "The service manages its own network interfaces: no filer interface is asked."}
            </p>
          )}
        </fieldset>
      ))}
      <fieldset>
        <legend className="mb-2 text-sm font-semibold text-slate-900">Sizing</legend>
        <p className="mb-2 text-sm text-slate-700">
          A volume is sized only when the inputs for its files are given; nothing is guessed.
        </p>
        <div className={grid}>
          <StepAnswers {...props} step="handover" group="sizing" />
        </div>
      </fieldset>
    </div>
  );
}
