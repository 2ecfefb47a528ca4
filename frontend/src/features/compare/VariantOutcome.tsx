// The foot of a variant's card: why it is not compared yet, or its result with its plan on demand
// and a link to open it in the wizard.
import { Link } from "react-router";
import type { Schemas } from "../../api/client";
import { Empty, Loading } from "../../components/States";
import { type Draft, encodeDraft } from "../../lib/draft";
import { PlanBody } from "../plan/PlanPanel";
import { VariantResult } from "./Results";

interface VariantOutcomeProps {
  /** The base with the variant's changes applied. */
  draft: Draft;
  label: string;
  /** How many answers differ from the base. */
  changeCount: number;
  /** Some answers are wrong in the browser's eyes: nothing is sent. */
  invalid: boolean;
  /** The server refused some of this variant's answers (said above the outcome). */
  refused: boolean;
  /** The request failed for another reason (another variant refused, the server down). */
  blocked: boolean;
  result: Schemas["WhatIfVariantOut"] | undefined;
  pending: boolean;
  showPlan: boolean;
  onShowPlan: (show: boolean) => void;
}

export function VariantOutcome({ draft, label, changeCount, invalid, refused, blocked, result, pending, showPlan, onShowPlan }: VariantOutcomeProps) {
  const changedSet = new Set((result?.changes ?? []).map((c) => c.key));
  return (
    <div className="mt-4">
      {changeCount === 0 ? (
        <Empty>Change at least one answer to compare this variant with the base.</Empty>
      ) : invalid ? (
        <p role="status" className="text-sm text-red-800">
          Fix the highlighted answers to compare this variant; nothing is sent until they are valid.
        </p>
      ) : refused ? null : blocked ? (
        <p className="text-sm text-slate-700">Not compared yet: the request failed (see above or the other variants).</p>
      ) : result ? (
        <div className={pending ? "opacity-60" : undefined}>
          <VariantResult label={label} result={result} />
          <div className="mt-3 flex flex-wrap gap-2">
            <button
              type="button"
              aria-expanded={showPlan}
              onClick={() => onShowPlan(!showPlan)}
              className="rounded border border-slate-400 bg-white px-3 py-1.5 text-sm hover:bg-slate-100"
            >
              {showPlan ? "Hide this variant's plan" : "Show this variant's plan"}
            </button>
            <Link
              to={`/?${encodeDraft(draft).toString()}`}
              className="rounded border border-slate-400 bg-white px-3 py-1.5 text-sm hover:bg-slate-100"
            >
              Open this variant in the wizard
            </Link>
          </div>
          {showPlan && (
            <div className="mt-3 space-y-4">
              <PlanBody plan={result.plan} changed={changedSet} />
            </div>
          )}
        </div>
      ) : (
        <Loading what="the comparison" />
      )}
    </div>
  );
}
