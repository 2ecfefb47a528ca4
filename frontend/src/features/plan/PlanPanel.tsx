import { useRef, useState } from "react";
import type { Platform, PlanView } from "../../api/client";
import { Empty, ErrorMessage, Loading } from "../../components/States";
import { Diagram } from "./Diagram";
import { Expectations } from "./Expectations";
import { Exports, ExportsPaused } from "./Exports";
import { Capacity } from "./Capacity";
import { Glance } from "./Glance";
import { Findings, MountTable, SettingsList } from "./PlanSections";
import { inOrder, useDateChanges } from "./dateChanges";
import { AsOfControl, ChangesList } from "./TimeTravel";

function Card({ title, children }: { title: string; children: React.ReactNode }) {
  const id = `card-${title.toLowerCase().replace(/[^a-z]+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id={id} className="mb-3 text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function PlanBody({ plan, changed }: { plan: PlanView; changed: Set<string> }) {
  return (
    <>
      <Card title="At a glance">
        <Glance plan={plan} />
      </Card>
      <Card title="Layout">
        <Diagram plan={plan} />
      </Card>
      <Card title="Mounts">
        <MountTable plan={plan} changed={changed} />
      </Card>
      <Card title="Findings">
        <Findings plan={plan} changed={changed} />
      </Card>
      <Card title="Settings">
        <SettingsList plan={plan} changed={changed} />
      </Card>
      <Card title="What to expect">
        <Expectations plan={plan} />
      </Card>
      {plan.capacity && (
        <Card title="Capacity">
          <Capacity plan={plan} />
        </Card>
      )}
    </>
  );
}

interface Props {
  plan: PlanView | undefined;
  pending: boolean;
  error: unknown;
  stale: boolean;
  platform: Platform | null;
  asOf: string;
  onAsOf: (value: string) => void;
}

export function PlanPanel({ plan, pending, error, stale, platform, asOf, onAsOf }: Props) {
  // Remember the date before the last change: the change list compares the two.
  const [previous, setPrevious] = useState<string | null>(null);
  const lastAsOf = useRef(asOf);
  const base = platform ? { ...platform, as_of: null } : null;
  const [earlier, later] = previous === null ? [null, asOf] : inOrder(previous, asOf);
  const changes = useDateChanges(base, earlier, later);
  const changed = new Set((changes.data?.changes ?? []).map((c) => c.key));

  function changeDate(value: string) {
    setPrevious(lastAsOf.current);
    lastAsOf.current = value;
    onAsOf(value);
  }

  return (
    <div className="space-y-4">
      <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <AsOfControl value={asOf} onChange={changeDate} />
          <p className="text-xs text-slate-600" aria-live="polite">
            {stale ? "Plan paused: answers need a fix" : pending ? "Updating the plan…" : plan ? `Knowledge base ${plan.kb_version}, advice as of ${plan.as_of}` : ""}
          </p>
        </div>
        {previous !== null && previous !== asOf && (
          <div className="mt-3">
            <ChangesList
              changes={changes.data?.changes}
              notYetReleased={changes.data?.not_yet_released}
              from={earlier ?? ""}
              to={later}
              error={changes.error}
            />
          </div>
        )}
        {plan && platform && (
          <div className="mt-4">
            <Exports plan={plan} source={{ platform }} />
          </div>
        )}
        {plan && !platform && <ExportsPaused />}
      </div>
      {error ? <ErrorMessage error={error} title="Could not plan this platform" /> : null}
      {!plan && !error && (pending ? <Loading what="the plan" /> : <Empty>Answer the questions to see the plan.</Empty>)}
      {plan && (
        <div className={`space-y-4 ${stale ? "opacity-60" : ""}`}>
          <PlanBody plan={plan} changed={changed} />
        </div>
      )}
    </div>
  );
}
