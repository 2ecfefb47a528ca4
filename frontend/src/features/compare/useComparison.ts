// The comparison itself: the base (from the link or a saved design), its variants checked in the
// browser, the what-if request for those ready, and the server's answers and refusals.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { api, ApiError, type Schemas, unwrap } from "../../api/client";
import { type Draft, draftFromPlatform } from "../../lib/draft";
import { useDebounced } from "../../lib/useDebounced";
import { validateDraft } from "../../lib/validation";
import { type CompareState, type Variant, effectivePatch, refusalsOf, variantErrors, whatIfBody } from "./model";

type WhatIfResponse = Schemas["WhatIfResponse"];

/** The base platform: the link's own answers, or the latest revision of the design it names. */
export function useCompareBase(state: CompareState) {
  const design = useQuery({
    queryKey: ["design", state.design],
    enabled: state.design !== null,
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/designs/{design_id}", { params: { path: { design_id: state.design ?? "" } } })),
  });
  const base: Draft | null = useMemo(() => {
    if (state.design === null) return state.base;
    return design.data ? draftFromPlatform(design.data.latest.platform) : null;
  }, [state.design, state.base, design.data]);
  return { design, base };
}

/** Checks the base and each variant, sends those ready (debounced) and sorts out the answer. */
export function useWhatIf(base: Draft | null, variants: Variant[], releaseRequired: boolean) {
  const baseErrors = base ? validateDraft(base, releaseRequired) : {};
  const baseValid = base !== null && Object.keys(baseErrors).length === 0;
  const checked = variants.map((variant, index) => ({
    variant,
    index,
    errors: base ? variantErrors(base, variant, releaseRequired) : {},
    changes: base ? Object.keys(effectivePatch(base, variant.patch)).length : 0,
  }));
  const ready = checked.filter((v) => v.changes > 0 && Object.keys(v.errors).length === 0);
  const request = baseValid && base ? whatIfBody(base, ready) : null;
  const key = useDebounced(request ? JSON.stringify(request) : null, 250);
  const whatIf = useQuery({
    queryKey: ["what-if", key],
    enabled: key !== null,
    placeholderData: keepPreviousData,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
    queryFn: async ({ signal }) => {
      const { body, sent } = JSON.parse(key ?? "null") as NonNullable<typeof request>;
      const data: WhatIfResponse = unwrap(await api.POST("/api/v1/plans/what-if", { body, signal }));
      return { data, sent };
    },
  });
  const sentNow: number[] = key ? (JSON.parse(key) as NonNullable<typeof request>).sent : [];
  const refusals = whatIf.error instanceof ApiError && whatIf.error.status === 422 ? refusalsOf(whatIf.error) : [];
  const baseRefusals = refusals.filter((r) => r.variant === null);
  const otherError = whatIf.error && refusals.length === 0 ? whatIf.error : null;

  /** The server's answer for the variant at `index`, when it was sent in the last request. */
  function resultFor(index: number) {
    const data = whatIf.data;
    if (!data) return undefined;
    const at = data.sent.indexOf(index);
    return at >= 0 ? data.data.variants[at] : undefined;
  }

  /** The refusals that name the variant at `index`. */
  function refusalsFor(index: number) {
    return refusals.filter((r) => r.variant !== null && sentNow[r.variant] === index);
  }

  return { baseErrors, baseValid, checked, whatIf, baseRefusals, otherError, resultFor, refusalsFor };
}
