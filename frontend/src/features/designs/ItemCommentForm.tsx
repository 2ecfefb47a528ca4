import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { api, type RevisionOut, unwrap } from "../../api/client";
import { TextField } from "../../components/Fields";
import { ErrorMessage } from "../../components/States";
import type { PlanItem } from "./planItems";
import { reviewerProblem, useReviewerName } from "./reviewerName";

type ItemDecision = "comment" | "request_changes";

const MAX_COMMENT = 4000;

interface Props {
  item: PlanItem;
  designId: string;
  revision: RevisionOut;
  token: string;
  formId: string;
  /** Called when the form closes: `recorded` says whether a comment was recorded. */
  onClose: (recorded: boolean) => void;
}

/** A comment or a change request on one plan item, in place. Never an approval: an approval is
 * always of the whole revision (the review panel). */
export function ItemCommentForm({ item, designId, revision, token, formId, onClose }: Props) {
  const queryClient = useQueryClient();
  const commentId = useId();
  const [reviewer, setReviewer] = useReviewerName();
  const [comment, setComment] = useState("");
  const [tried, setTried] = useState(false);
  const commentBox = useRef<HTMLTextAreaElement>(null);
  // An approved revision is final: it takes comments, not change requests.
  const final = revision.status === "approved";

  useEffect(() => {
    commentBox.current?.focus();
  }, []);

  const submit = useMutation({
    mutationFn: async (decision: ItemDecision) =>
      unwrap(
        await api.POST("/api/v1/designs/{design_id}/reviews", {
          params: { path: { design_id: designId }, header: { "x-review-token": token } },
          body: { revision: revision.number, reviewer: reviewer.trim(), decision, comment, item_rule: item.rule, item: item.ref, acknowledge_errors: false },
        }),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["design", designId] });
      onClose(true);
    },
  });

  const reviewerError = reviewerProblem(reviewer);
  const commentError = comment.trim() === "" ? "write your comment" : comment.length > MAX_COMMENT ? `at most ${MAX_COMMENT} characters` : undefined;
  const showCommentError = commentError && (tried || comment.length > MAX_COMMENT);

  function send(decision: ItemDecision) {
    setTried(true);
    if (reviewerError || commentError) return;
    submit.mutate(decision);
  }

  return (
    <form
      id={formId}
      aria-label={`Comment on ${item.words}`}
      className="mt-2 space-y-2 rounded border border-blue-300 bg-blue-50 p-2 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        send("comment");
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape" && !submit.isPending) onClose(false);
      }}
    >
      <TextField label="Your name" name="item-comment.reviewer" value={reviewer} error={tried || reviewer ? reviewerError : undefined} onChange={setReviewer} />
      <div>
        <label htmlFor={commentId} className="block text-sm font-medium text-slate-800">
          Your comment
        </label>
        <textarea
          ref={commentBox}
          id={commentId}
          value={comment}
          onChange={(event) => setComment(event.target.value)}
          rows={3}
          aria-invalid={showCommentError ? true : undefined}
          aria-describedby={showCommentError ? `${commentId}-msg` : undefined}
          className="mt-1 block w-full rounded border border-slate-400 bg-white px-2 py-1.5 text-sm"
        />
        {showCommentError && (
          <p id={`${commentId}-msg`} className="mt-1 text-xs text-red-700">
            {commentError}
          </p>
        )}
      </div>
      {final && <p className="text-xs text-slate-700">Revision {revision.number} is approved: it takes comments, not change requests.</p>}
      <div className="flex flex-wrap gap-2">
        <button type="submit" disabled={submit.isPending} className="rounded bg-blue-800 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50">
          {submit.isPending && submit.variables === "comment" ? "Recording…" : "Comment"}
        </button>
        {!final && (
          <button
            type="button"
            disabled={submit.isPending}
            onClick={() => send("request_changes")}
            className="rounded border border-amber-400 bg-amber-50 px-3 py-1.5 text-sm font-medium text-amber-950 disabled:opacity-50"
          >
            {submit.isPending && submit.variables === "request_changes" ? "Recording…" : "Request a change"}
          </button>
        )}
        <button type="button" disabled={submit.isPending} onClick={() => onClose(false)} className="rounded px-3 py-1.5 text-sm text-blue-800 underline disabled:opacity-50">
          Cancel
        </button>
      </div>
      {submit.isError && <ErrorMessage error={submit.error} title="Comment not recorded" />}
    </form>
  );
}
