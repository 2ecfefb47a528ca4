import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, type RevisionOut, unwrap } from "../../api/client";
import { SelectField, TextField } from "../../components/Fields";
import { ErrorMessage } from "../../components/States";

export function ReviewPanel({ designId, revision, token }: { designId: string; revision: RevisionOut; token: string }) {
  const queryClient = useQueryClient();
  const [reviewer, setReviewer] = useState("");
  const [decision, setDecision] = useState<"approve" | "request_changes" | "comment">("approve");
  const [comment, setComment] = useState("");
  const [itemRule, setItemRule] = useState("");
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
            item_rule: itemRule || null,
          },
        }),
      ),
    onSuccess: () => {
      setComment("");
      void queryClient.invalidateQueries({ queryKey: ["design", designId] });
    },
  });
  const final = revision.status === "approved";
  const reviewerError = reviewer.trim() === "" ? "enter your name" : reviewer.length > 80 ? "at most 80 characters" : undefined;
  const commentError = comment.length > 4000 ? "at most 4000 characters" : undefined;
  const rules = Object.values(revision.plan.rules);
  return (
    <form
      className="space-y-3"
      aria-label={`Review revision ${revision.number}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (!reviewerError && !commentError) submit.mutate();
      }}
    >
      {final && <p className="text-sm text-green-900">Revision {revision.number} is approved; approvals are final. You can still comment.</p>}
      <TextField label="Reviewer" name="review.reviewer" value={reviewer} error={reviewer ? reviewerError : undefined} onChange={setReviewer} />
      <SelectField
        label="Decision"
        name="review.decision"
        value={decision}
        onChange={(value) => setDecision(value as typeof decision)}
        options={[
          ...(final ? [] : [{ value: "approve", label: "Approve" }, { value: "request_changes", label: "Request changes" }]),
          { value: "comment", label: "Comment only" },
        ]}
      />
      <SelectField
        label="About one item (optional)"
        name="review.item_rule"
        value={itemRule}
        onChange={setItemRule}
        options={[{ value: "", label: "The whole revision" }, ...rules.map((r) => ({ value: r.id, label: `${r.id} — ${r.title}` }))]}
      />
      <div>
        <label htmlFor="review-comment" className="block text-sm font-medium">Comment</label>
        <textarea id="review-comment" value={comment} onChange={(e) => setComment(e.target.value)} rows={3} aria-invalid={commentError ? true : undefined} className="mt-1 w-full rounded border border-slate-400 bg-white px-2 py-1.5 text-sm" />
        {commentError && <p className="text-xs text-red-700">{commentError}</p>}
      </div>
      <button type="submit" disabled={Boolean(reviewerError || commentError) || submit.isPending} className="rounded bg-blue-800 px-4 py-2 text-sm font-medium text-white disabled:opacity-50">
        {submit.isPending ? "Recording…" : "Record review"}
      </button>
      {submit.isError && <ErrorMessage error={submit.error} title="Review not recorded" />}
      {submit.isSuccess && <p role="status" className="text-sm text-green-900">Review recorded.</p>}
    </form>
  );
}
