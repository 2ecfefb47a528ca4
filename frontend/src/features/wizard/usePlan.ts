import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, type Platform, unwrap } from "../../api/client";

export function usePlan(platform: Platform | null) {
  const body = platform ? JSON.stringify(platform) : null;
  return useQuery({
    queryKey: ["plan", body],
    enabled: platform !== null,
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) =>
      unwrap(await api.POST("/api/v1/plans", { body: platform as Platform, signal })),
  });
}

export function useCatalog() {
  return useQuery({
    queryKey: ["catalog"],
    staleTime: Infinity,
    queryFn: async () => unwrap(await api.GET("/api/v1/catalog")),
  });
}
