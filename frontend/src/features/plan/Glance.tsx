// The plan at a glance: the verdict, the decisions that matter, the disagreements that affect
// this platform and the advice it no longer follows. The runbook and the CLI show the same.
import type { PlanView } from "../../api/client";

export function Glance({ plan }: { plan: PlanView }) {
  const s = plan.summary;
  if (!s) return null;
  return (
    <div className="space-y-2 text-sm" data-testid="glance">
      <p className="text-base font-semibold" data-testid="verdict">
        {s.verdict}
      </p>
      <ul className="list-disc space-y-1 pl-5">
        {s.decisions.map((line) => (
          <li key={line} className="wrap-anywhere">
            {line}
          </li>
        ))}
      </ul>
      {s.disagreements.length > 0 && (
        <div>
          <p className="font-medium text-amber-900">Where the sources disagree</p>
          <ul className="list-disc space-y-1 pl-5">
            {s.disagreements.map((d) => (
              <li key={d.topic} className="wrap-anywhere">
                {d.topic}: the plan follows {d.followed}
              </li>
            ))}
          </ul>
        </div>
      )}
      {s.reversals.length > 0 && (
        <div>
          <p className="font-medium">Advice that changed</p>
          <ul className="list-disc space-y-1 pl-5">
            {s.reversals.map((line) => (
              <li key={line} className="wrap-anywhere">
                {line}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
