// The plan in one card beside the wizard (under it on a phone), so every answer shows its effect
// without scrolling to the plan: counts, the first error, answers left out, and a way there.
import type { PlanView } from "../../api/client";
import { answerLabel } from "../designs/answerWords";
import type { FieldErrors } from "../../lib/validation";

function count(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? "" : "s"}`;
}

interface Props {
  plan: PlanView | undefined;
  pending: boolean;
  blocking: FieldErrors;
  leftOut: FieldErrors;
}

export function PlanSummary({ plan, pending, blocking, leftOut }: Props) {
  const missing = Object.keys(blocking);
  const errors = plan?.findings.filter((f) => f.severity === "error") ?? [];
  const warnings = plan?.findings.filter((f) => f.severity === "warning").length ?? 0;
  const firstError = errors[0];
  return (
    <aside
      aria-label="Plan summary"
      data-testid="plan-summary"
      className="sticky bottom-0 z-10 mt-4 rounded-lg border border-slate-300 bg-white p-3 text-sm shadow-md xl:top-4 xl:bottom-auto"
    >
      {missing.length > 0 ? (
        <p className="text-red-800">
          The plan waits for {count(missing.length, "answer")}: {missing.map(answerLabel).join(", ")}.
        </p>
      ) : plan ? (
        <p className="font-medium" aria-live="polite">
          {count(errors.length, "error")} · {count(warnings, "warning")} · {count(plan.mounts.length, "mount")} ·{" "}
          {count(plan.volumes.length, "volume")}
          {pending && <span className="font-normal text-slate-600"> (updating…)</span>}
        </p>
      ) : (
        <p className="text-slate-700">Planning…</p>
      )}
      {missing.length === 0 && firstError && (
        <p className="mt-1 text-red-800 wrap-anywhere">First error: {firstError.message}</p>
      )}
      {Object.keys(leftOut).length > 0 && (
        <p className="mt-1 text-amber-950 wrap-anywhere" data-testid="left-out">
          Left out of the plan until corrected (the field says how; nothing else waits for it):{" "}
          {Object.keys(leftOut).map(answerLabel).join(", ")}.
        </p>
      )}
      {/* A button, not a #plan link: the address's fragment carries a design's edit token. */}
      <button
        type="button"
        onClick={() => {
          const target = document.getElementById("plan");
          target?.scrollIntoView({ block: "start" });
          target?.focus({ preventScroll: true });
        }}
        className="mt-1 font-medium text-blue-800 underline"
      >
        See the plan
      </button>
    </aside>
  );
}
