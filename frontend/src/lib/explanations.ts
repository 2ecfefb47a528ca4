import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";

/** Every rule's explanation by id, fetched once per knowledge base (plans carry rule ids only). */
export function useExplanations(enabled = true) {
  return useQuery({
    queryKey: ["explanations"],
    enabled,
    staleTime: Infinity,
    queryFn: async () => unwrap(await api.GET("/api/v1/knowledge/explanations")),
  });
}
