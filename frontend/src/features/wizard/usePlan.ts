import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type Platform, unwrap } from "../../api/client";

/** The plan for the answers, with the rule explanations its items name. Plans carry rule ids
 * only; the explanations come once per knowledge base from /api/v1/knowledge/explanations. */
export function usePlan(platform: Platform | null) {
  const queryClient = useQueryClient();
  const body = platform ? JSON.stringify(platform) : null;
  return useQuery({
    queryKey: ["plan", body],
    enabled: platform !== null,
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => {
      const [plan, explanations] = await Promise.all([
        api.POST("/api/v1/plans", { body: platform as Platform, signal }).then(unwrap),
        queryClient.fetchQuery({
          queryKey: ["explanations"],
          staleTime: Infinity,
          queryFn: async () => unwrap(await api.GET("/api/v1/knowledge/explanations")),
        }),
      ]);
      return { ...plan, rules: explanations.rules };
    },
  });
}

export function useCatalog() {
  return useQuery({
    queryKey: ["catalog"],
    staleTime: Infinity,
    queryFn: async () => unwrap(await api.GET("/api/v1/catalog")),
  });
}
