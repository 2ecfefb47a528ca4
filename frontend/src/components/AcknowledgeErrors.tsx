import { useId } from "react";
import type { Schemas } from "../api/client";

export function errorFindings(findings: Schemas["Finding"][] | undefined): Schemas["Finding"][] {
  return (findings ?? []).filter((finding) => finding.severity === "error");
}

/** "1 error finding", "2 error findings". */
export function errorCount(n: number): string {
  return `${n} error finding${n === 1 ? "" : "s"}`;
}

/**
 * The explicit confirmation the server asks for (acknowledge_errors) before a plan with error
 * findings is saved or approved: the findings, and a checkbox that must be ticked.
 */
export function AcknowledgeErrors({
  findings,
  verb,
  checked,
  onChange,
}: {
  findings: Schemas["Finding"][];
  verb: "approve" | "save";
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  if (findings.length === 0) return null;
  const count = errorCount(findings.length);
  return (
    <div role="group" aria-labelledby={`${id}-title`} className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-950">
      <p id={`${id}-title`} className="font-semibold">
        This plan has {count}:
      </p>
      <ul className="mt-1 list-disc space-y-1 pl-5 wrap-anywhere">
        {findings.map((finding, index) => (
          <li key={`${finding.rule}-${index}`}>
            <code className="text-xs">{finding.rule}</code>: {finding.message}
          </li>
        ))}
      </ul>
      <div className="mt-2 flex items-start gap-2">
        <input
          id={id}
          type="checkbox"
          name={`acknowledge_errors.${verb}`}
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          className="mt-0.5 h-4 w-4 shrink-0 accent-red-800"
        />
        <label htmlFor={id} className="font-medium">
          I have read the {count} and {verb} anyway
        </label>
      </div>
    </div>
  );
}
