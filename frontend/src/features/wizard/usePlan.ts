import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { api, type Platform, type PlanView, unwrap } from "../../api/client";
import { useExplanations } from "../../lib/explanations";

export interface PlanQuery {
  data: PlanView | undefined;
  error: Error | null;
  isError: boolean;
  isFetching: boolean;
  isPlaceholderData: boolean;
}

/** The plan for the answers, with the rule explanations its items name. Plans carry rule ids
 * only; the explanations come once per knowledge base from /api/v1/knowledge/explanations and
 * are merged in when they arrive, so the first plan is drawn without waiting for them. */
export function usePlan(platform: Platform | null): PlanQuery {
  const body = platform ? JSON.stringify(platform) : null;
  const plan = useQuery({
    queryKey: ["plan", body],
    enabled: platform !== null,
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => unwrap(await api.POST("/api/v1/plans", { body: platform as Platform, signal })),
  });
  const explanations = useExplanations();
  const data = useMemo(
    () => (plan.data ? { ...plan.data, rules: explanations.data?.rules ?? plan.data.rules } : undefined),
    [plan.data, explanations.data],
  );
  return {
    data,
    error: plan.error,
    isError: plan.isError,
    isFetching: plan.isFetching,
    isPlaceholderData: plan.isPlaceholderData,
  };
}

export function useCatalog() {
  return useQuery({
    queryKey: ["catalog"],
    staleTime: Infinity,
    queryFn: async () => unwrap(await api.GET("/api/v1/catalog")),
  });
}
