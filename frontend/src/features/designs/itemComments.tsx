// Comments on one plan item, in place: the design page provides the design, the revision and
// its review token (if the page holds one) to the plan's components, which show each item's
// comments under it and, for a reviewer, a Comment control beside it. Outside the provider
// (the wizard's plan panel) every part renders nothing.
import { createContext, type MouseEvent, useContext, useMemo, useState } from "react";
import { Link } from "react-router";
import type { PlanView, RevisionOut, Schemas } from "../../api/client";
import { ItemCommentForm } from "./ItemCommentForm";
import { commentCount, decisionWords, identity, type PlanItem, planItems, reviewsByItem, wordsOfRef } from "./planItems";

type Review = Schemas["ReviewOut"];

interface ItemComments {
  designId: string;
  revision: RevisionOut;
  /** The review token, when the page holds one: only then may the reader comment. */
  token: string | null;
  reviews: Map<string, Review[]>;
  /** The identity of the item whose comment form is open (one at a time). */
  openFor: string | null;
  setOpenFor: (identity: string | null) => void;
  announce: (message: string) => void;
}

const ItemCommentsContext = createContext<ItemComments | null>(null);

export function ItemCommentsProvider({ designId, revision, token, children }: { designId: string; revision: RevisionOut; token: string | null; children: React.ReactNode }) {
  const [openFor, setOpenFor] = useState<string | null>(null);
  const [announcement, announce] = useState("");
  const reviews = useMemo(() => reviewsByItem(revision.reviews), [revision.reviews]);
  const value = useMemo(() => ({ designId, revision, token, reviews, openFor, setOpenFor, announce }), [designId, revision, token, reviews, openFor]);
  return (
    <ItemCommentsContext.Provider value={value}>
      {children}
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </ItemCommentsContext.Provider>
  );
}

/** Focus styling for an item the reviews list moves to (only then does it take focus). */
export const ITEM_FOCUS = "focus:outline-none focus:ring-2 focus:ring-blue-700";

/** The attribute that lets the reviews list move to an item: its element id, on the design
 * page only. */
export function useItemAnchor(): (item: PlanItem) => { id?: string } {
  const context = useContext(ItemCommentsContext);
  return (item) => (context ? { id: item.elementId } : {});
}

/** How many comments an item has (0 outside the design page). */
export function useCommentCount(): (item: PlanItem) => number {
  const context = useContext(ItemCommentsContext);
  return (item) => context?.reviews.get(identity(item.ref))?.length ?? 0;
}

/** A badge with the item's number of comments; `compact` (inside an option chip) shows the
 * number alone. */
export function CommentCount({ item, compact = false }: { item: PlanItem; compact?: boolean }) {
  const count = useCommentCount()(item);
  if (count === 0) return null;
  if (compact) {
    return (
      <span className="ml-1 rounded-full bg-blue-100 px-1.5 font-sans text-xs font-semibold text-blue-900">
        <span className="sr-only">, </span>
        {count}
        <span className="sr-only"> {count === 1 ? "comment" : "comments"}</span>
      </span>
    );
  }
  return <span className="rounded-full bg-blue-100 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-blue-900">{commentCount(count)}</span>;
}

/** Beside an item: its number of comments and, for a reviewer, the Comment control; nothing
 * outside the design page, or when there is neither. */
export function ItemTools({ item }: { item: PlanItem }) {
  const context = useContext(ItemCommentsContext);
  const count = useCommentCount()(item);
  if (!context || (!context.token && count === 0)) return null;
  return (
    <span className="inline-flex shrink-0 flex-wrap items-center gap-1">
      <CommentCount item={item} />
      <CommentButton item={item} />
    </span>
  );
}

function formIdOf(item: PlanItem): string {
  return `${item.elementId}-form`;
}

function buttonIdOf(item: PlanItem): string {
  return `${item.elementId}-comment`;
}

/** "Comment": opens the inline form for the item. Only for a reader holding the review token. */
export function CommentButton({ item }: { item: PlanItem }) {
  const context = useContext(ItemCommentsContext);
  if (!context?.token) return null;
  const open = context.openFor === identity(item.ref);
  return (
    <button
      type="button"
      id={buttonIdOf(item)}
      aria-expanded={open}
      aria-controls={open ? formIdOf(item) : undefined}
      onClick={() => context.setOpenFor(open ? null : identity(item.ref))}
      className="inline-flex min-h-6 shrink-0 items-center rounded px-1 text-xs font-medium text-blue-800 underline"
    >
      Comment<span className="sr-only"> on {item.words}</span>
    </button>
  );
}

/** The item's comment form, when it is open. */
export function OpenCommentForm({ item }: { item: PlanItem }) {
  const context = useContext(ItemCommentsContext);
  if (!context?.token || context.openFor !== identity(item.ref)) return null;
  const { designId, revision, token, setOpenFor, announce } = context;
  function close(recorded: boolean) {
    setOpenFor(null);
    if (recorded) announce(`Comment on ${item.words} recorded.`);
    // Back to the control that opened the form (it stays on the page).
    requestAnimationFrame(() => document.getElementById(buttonIdOf(item))?.focus());
  }
  return <ItemCommentForm key={revision.number} item={item} designId={designId} revision={revision} token={token} formId={formIdOf(item)} onClose={close} />;
}

/** "2026-11-23 01:04 UTC" from an ISO date-time. */
function when(iso: string): string {
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

/** The comments on one item, oldest first: who, what they did, when, and the text (as text). */
export function ItemCommentList({ item, label }: { item: PlanItem; label?: string }) {
  const context = useContext(ItemCommentsContext);
  const reviews = context?.reviews.get(identity(item.ref)) ?? [];
  if (reviews.length === 0) return null;
  return (
    <ul aria-label={`Comments on ${item.words}`} className="mt-2 space-y-1.5 border-l-2 border-blue-300 pl-2" data-testid="item-comments">
      {reviews.map((review) => (
        <li key={review.id} className="min-w-0 text-sm wrap-anywhere">
          <p className="text-xs text-slate-700">
            {label && <span className="font-mono">{label} · </span>}
            <strong className="text-slate-900">{review.reviewer}</strong> {decisionWords(review.decision)} · {when(review.created_at)}
            {review.imported && " · imported, not verified"}
          </p>
          {review.comment && <p className="whitespace-pre-wrap text-slate-900">{review.comment}</p>}
        </li>
      ))}
    </ul>
  );
}

/** Under a mount, a setting or a finding: its comments and, when open, the form. */
export function ItemComments({ item }: { item: PlanItem }) {
  return (
    <>
      <ItemCommentList item={item} />
      <OpenCommentForm item={item} />
    </>
  );
}

/** Move to an item of the plan: open the folded sections around it, scroll to it, focus it. */
export function focusPlanItem(elementId: string): void {
  const element = document.getElementById(elementId);
  if (!element) return;
  for (let fold = element.closest("details"); fold; fold = fold.parentElement?.closest("details") ?? null) fold.open = true;
  // A mount, a setting or a finding takes focus for this move only: clicks inside it must not
  // focus (and ring) it. An option chip is a button and keeps its own tab stop.
  if (!element.hasAttribute("tabindex") && !(element instanceof HTMLButtonElement)) {
    element.setAttribute("tabindex", "-1");
    element.addEventListener("blur", () => element.removeAttribute("tabindex"), { once: true });
  }
  element.scrollIntoView({ block: "center" });
  element.focus({ preventScroll: true });
}

/** In the reviews list: what a review is about, in words, with a link to the item on the page;
 * a review that names only a rule links to the rule. */
export function ReviewSubject({ review, plan }: { review: Review; plan: PlanView }) {
  const items = useMemo(() => planItems(plan), [plan]);
  if (review.item) {
    const shown = items.get(identity(review.item));
    if (!shown) return <> · on {wordsOfRef(review.item)}</>;
    return (
      <>
        {" "}
        · on{" "}
        <a
          href={`#${shown.elementId}`}
          className="text-blue-800 underline"
          onClick={(event: MouseEvent<HTMLAnchorElement>) => {
            // The URL's fragment holds the page's capability token: move without changing it.
            event.preventDefault();
            focusPlanItem(shown.elementId);
          }}
        >
          {shown.words}
        </a>
      </>
    );
  }
  if (!review.item_rule) return null;
  return (
    <>
      {" "}
      · on{" "}
      <Link className="text-blue-800 underline" to={`/rules/${review.item_rule}`}>
        {review.item_rule}
      </Link>
    </>
  );
}
