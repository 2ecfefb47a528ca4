// What one variant changes: nasplan's model figures, what the sources measured (evidence, not a
// prediction), and the plan's changes item by item.
import type { Schemas } from "../../api/client";
import { ChangesList } from "../plan/TimeTravel";
import { direction, figureName, formatFigure, headline, isNumericPair } from "./model";

type VariantOut = Schemas["WhatIfVariantOut"];
type Gain = Schemas["MeasuredGainOut"];

const DIRECTION_STYLE = {
  better: "text-green-800",
  worse: "text-red-800",
  same: "text-slate-600",
  unknown: "text-slate-800",
} as const;

function ModelFigures({ label, result }: { label: string; result: VariantOut }) {
  const numeric = result.expectations.filter(isNumericPair);
  const text = result.expectations.filter((pair) => !isNumericPair(pair) && pair.base !== pair.variant);
  return (
    <section aria-label={`nasplan's model for ${label}`} className="rounded border border-blue-200 border-l-4 border-l-blue-700 bg-white p-3">
      <p className="text-xs font-semibold uppercase tracking-wide text-blue-900">nasplan's model</p>
      <p className="mt-1 text-base font-semibold wrap-anywhere" data-testid="headline">
        {label}: {headline(result.expectations, result.measured_gains.length)}
      </p>
      <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
        {numeric.map((pair) => {
          const way = direction(pair);
          return (
            <div key={pair.field} className="min-w-0">
              <dt className="inline font-medium">{figureName(pair.field)}: </dt>
              <dd className={`inline ${DIRECTION_STYLE[way]}`}>
                {formatFigure(pair.field, pair.base)} → {formatFigure(pair.field, pair.variant)}
                {way === "better" || way === "worse" ? <span className="text-xs"> ({way})</span> : null}
              </dd>
            </div>
          );
        })}
      </dl>
      {text.length > 0 && (
        <details className="mt-2 text-sm">
          <summary className="cursor-pointer font-medium">{text.map((pair) => figureName(pair.field)).join(" and ")}, before and after</summary>
          <dl className="mt-1 space-y-2">
            {text.map((pair) => (
              <div key={pair.field}>
                <dt className="font-medium">{figureName(pair.field)}</dt>
                <dd className="wrap-anywhere">
                  <span className="text-slate-600">Base: </span>
                  {formatFigure(pair.field, pair.base)}
                </dd>
                <dd className="wrap-anywhere">
                  <span className="text-slate-600">{label}: </span>
                  {formatFigure(pair.field, pair.variant)}
                </dd>
              </div>
            ))}
          </dl>
        </details>
      )}
      <p className="mt-2 text-xs text-slate-600">Figures computed by nasplan for your platform from its model; see the plan's assumptions.</p>
    </section>
  );
}

function GainCard({ gain }: { gain: Gain }) {
  return (
    <li data-testid={`gain-${gain.id}`} className="min-w-0 rounded border border-amber-300 bg-amber-50 p-3 text-sm">
      <p className="text-xs font-medium text-amber-900">{gain.change}</p>
      {gain.reverse && (
        <p className="mt-1 text-xs font-medium text-amber-950" data-testid="gain-reverse">
          Measured the other way round: this variant undoes that change, so expect the opposite.
        </p>
      )}
      <blockquote className="mt-1 border-l-2 border-amber-500 pl-2 font-medium wrap-anywhere text-slate-900">{gain.figure}</blockquote>
      <p className="mt-1 text-xs wrap-anywhere text-slate-800">
        <span className="font-medium">Measured under: </span>
        {gain.measured_under}
      </p>
      <p className="mt-1 text-xs wrap-anywhere text-slate-800">
        <span className="font-medium">Source: </span>“{gain.source.title}”{gain.source.published ? ` (${gain.source.published})` : ""} — {gain.source.locator}{" "}
        <code className="text-slate-600">[{gain.source.id}]</code>
      </p>
    </li>
  );
}

function MeasuredGains({ label, gains }: { label: string; gains: Gain[] }) {
  return (
    <section aria-label={`Measured by the sources for ${label}`} className="rounded border border-dashed border-amber-400 p-3">
      <p className="text-xs font-semibold uppercase tracking-wide text-amber-900">Measured by the sources (conditions differ from your platform)</p>
      {gains.length === 0 ? (
        <p className="mt-1 text-sm text-slate-700">No source measured a change of this kind.</p>
      ) : (
        <>
          <p className="mt-1 text-xs text-slate-700">Evidence from other labs, not a prediction for this platform.</p>
          <ul className="mt-2 grid grid-cols-1 gap-2 lg:grid-cols-2">
            {gains.map((gain) => (
              <GainCard key={gain.id} gain={gain} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

export function VariantResult({ label, result }: { label: string; result: VariantOut }) {
  return (
    <div className="space-y-3">
      <ModelFigures label={label} result={result} />
      <MeasuredGains label={label} gains={result.measured_gains} />
      <ChangesList changes={result.changes} from="the base" to={label} error={null} cause="platform" />
    </div>
  );
}
