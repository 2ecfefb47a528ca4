// The reviewer's name, shared by the review panel and every comment form on a plan item (type it
// in one, the others have it) and remembered in this browser for the next visit. Nothing depends
// on the storage: without it the forms just ask again.
import { useSyncExternalStore } from "react";

const STORAGE_KEY = "nasplan-reviewer";
const listeners = new Set<() => void>();
let typed: string | null = null;

function stored(): string {
  try {
    return typeof localStorage === "undefined" ? "" : (localStorage.getItem(STORAGE_KEY) ?? "");
  } catch {
    return "";
  }
}

function current(): string {
  return typed ?? stored();
}

function rememberReviewer(name: string): void {
  typed = name;
  try {
    if (name.trim()) localStorage.setItem(STORAGE_KEY, name.trim());
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage full or blocked: the name still holds on this page.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The reviewer's name as typed in any review form of the page, and how to change it. */
export function useReviewerName(): [string, (name: string) => void] {
  return [useSyncExternalStore(subscribe, current, () => ""), rememberReviewer];
}

/** Why a reviewer name cannot be sent, if it cannot (the server's limits). */
export function reviewerProblem(name: string): string | undefined {
  return name.trim() === "" ? "enter your name" : name.length > 80 ? "at most 80 characters" : undefined;
}
