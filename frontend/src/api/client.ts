// Typed access to the nasplan API. `schema.d.ts` is generated from the backend's OpenAPI
// schema (scripts/gen-client.sh); the test command fails when it is out of date.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

export type Schemas = components["schemas"];
export type Platform = Schemas["Platform"];
export type PlanView = Schemas["PlanView"];
export type Catalog = Schemas["Catalog"];
export type Change = Schemas["Change"];
export type RuleExplanation = Schemas["RuleExplanation"];
export type DesignOut = Schemas["DesignOut"];
export type RevisionOut = Schemas["RevisionOut"];
export type DesignCreated = Schemas["DesignCreated"];

export const api = createClient<paths>({ baseUrl: "" });

export interface FieldProblem {
  field: string;
  message: string;
}

/** An API failure with the fields the server named (422) and a sentence for people. */
export class ApiError extends Error {
  readonly status: number;
  readonly problems: FieldProblem[];

  constructor(status: number, message: string, problems: FieldProblem[] = []) {
    super(message);
    this.status = status;
    this.problems = problems;
  }
}

interface DetailItem {
  loc?: (string | number)[];
  msg?: string;
}

export function toApiError(status: number, body: unknown): ApiError {
  const detail = (body as { detail?: unknown } | undefined)?.detail;
  if (Array.isArray(detail)) {
    const problems = (detail as DetailItem[]).map((item) => ({
      field: (item.loc ?? []).filter((part) => part !== "body").join("."),
      message: item.msg ?? "invalid",
    }));
    const summary = problems.map((p) => `${p.field}: ${p.message}`).join("; ");
    return new ApiError(status, `The server refused the request: ${summary}`, problems);
  }
  if (typeof detail === "string") return new ApiError(status, detail);
  if (status >= 500) return new ApiError(status, "The server failed to answer. Try again in a moment.");
  return new ApiError(status, `Request failed (HTTP ${status}).`);
}

/** Unwrap an openapi-fetch result, turning any failure into an ApiError. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined || !result.response.ok) {
    throw toApiError(result.response.status, result.error);
  }
  return result.data;
}

/** The file name the server gave an attachment (Content-Disposition), or the fallback. */
export function attachmentName(response: Response, fallbackName: string): string {
  const disposition = response.headers.get("content-disposition") ?? "";
  return /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
}

/** Download a binary or text answer as a file. */
export async function download(path: string, init: RequestInit, fallbackName: string): Promise<void> {
  const response = await fetch(path, init);
  if (!response.ok) {
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    throw toApiError(response.status, body);
  }
  const name = attachmentName(response, fallbackName);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
