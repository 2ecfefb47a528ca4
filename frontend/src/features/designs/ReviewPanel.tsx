import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, type RevisionOut, unwrap } from "../../api/client";
import { AcknowledgeErrors, errorFindings } from "../../components/AcknowledgeErrors";
import { SelectField, TextField } from "../../components/Fields";
import { ErrorMessage } from "../../components/States";
import { reviewerProblem, useReviewerName } from "./reviewerName";

type Decision = "approve" | "request_changes" | "comment";

export function ReviewPanel({ designId, revision, token }: { designId: string; revision: RevisionOut; token: string }) {
  const queryClient = useQueryClient();
  // Approvals are final, so nothing approves by default: the form starts on a comment and an
  // approval is always chosen. An approved revision only takes comments.
  const final = revision.status === "approved";
  const defaultDecision: Decision = "comment";
  const [reviewer, setReviewer] = useReviewerName();
  const [chosen, setChosen] = useState<Decision>(defaultDecision);
  const [comment, setComment] = useState("");
  const [acknowledged, setAcknowledged] = useState(false);
  const decision: Decision = final ? "comment" : chosen;
  const approving = decision === "approve";
  const errors = errorFindings(revision.plan.findings);
  const needsAcknowledgement = approving && errors.length > 0;

  function reset() {
    setChosen(defaultDecision);
    setComment("");
    setAcknowledged(false);
  }

  const submit = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST("/api/v1/designs/{design_id}/reviews", {
          params: { path: { design_id: designId }, header: { "x-review-token": token } },
          body: {
            revision: revision.number,
            reviewer: reviewer.trim(),
            decision,
            comment,
            // The whole revision: one item is commented on in place, beside it in the plan.
            item_rule: null,
            acknowledge_errors: needsAcknowledgement && acknowledged,
          },
        }),
      ),
    onSuccess: () => {
      reset();
      void queryClient.invalidateQueries({ queryKey: ["design", designId] });
    },
  });
  const reviewerError = reviewerProblem(reviewer);
  const commentError = comment.length > 4000 ? "at most 4000 characters" : undefined;
  const blocked = Boolean(reviewerError || commentError) || (needsAcknowledgement && !acknowledged);
  return (
    <form
      className="space-y-3"
      aria-label={`Review revision ${revision.number}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (!blocked) submit.mutate();
      }}
    >
      {final && <p className="text-sm text-green-900">Revision {revision.number} is approved; approvals are final. You can still comment.</p>}
      <TextField label="Reviewer" name="review.reviewer" value={reviewer} error={reviewer ? reviewerError : undefined} onChange={setReviewer} />
      <SelectField
        label="Decision"
        name="review.decision"
        value={decision}
        onChange={(value) => setChosen(value as Decision)}
        hint={approving ? "An approval applies to the whole revision." : undefined}
        options={[
          ...(final ? [] : [{ value: "approve", label: "Approve" }, { value: "request_changes", label: "Request changes" }]),
          { value: "comment", label: "Comment only" },
        ]}
      />
      {!approving && <p className="text-xs text-slate-600">To comment on one mount, option, setting or finding, use Comment beside it in the plan.</p>}
      <div>
        <label htmlFor="review-comment" className="block text-sm font-medium">Comment</label>
        <textarea id="review-comment" value={comment} onChange={(e) => setComment(e.target.value)} rows={3} aria-invalid={commentError ? true : undefined} className="mt-1 w-full rounded border border-slate-400 bg-white px-2 py-1.5 text-sm" />
        {commentError && <p className="text-xs text-red-700">{commentError}</p>}
      </div>
      {needsAcknowledgement && <AcknowledgeErrors findings={errors} verb="approve" checked={acknowledged} onChange={setAcknowledged} />}
      <button type="submit" disabled={blocked || submit.isPending} className="rounded bg-blue-800 px-4 py-2 text-sm font-medium text-white disabled:opacity-50">
        {submit.isPending ? "Recording…" : "Record review"}
      </button>
      {submit.isError && <ErrorMessage error={submit.error} title="Review not recorded" />}
      {submit.isSuccess && <p role="status" className="text-sm text-green-900">Review recorded.</p>}
    </form>
  );
}
