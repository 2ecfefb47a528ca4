import { useQuery } from "@tanstack/react-query";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import { api, type RevisionOut, type Schemas, unwrap } from "../../api/client";
import { errorCount, errorFindings } from "../../components/AcknowledgeErrors";
import { CopyButton } from "../../components/CopyButton";
import { Empty, ErrorMessage, Loading } from "../../components/States";
import { draftFromPlatform, encodeDraft } from "../../lib/draft";
import { readCapabilities } from "../../lib/fragment";
import { Exports } from "../plan/Exports";
import { PlanBody } from "../plan/PlanPanel";
import { ChangesList } from "../plan/TimeTravel";
import { AsBuilt } from "./AsBuilt";
import { BeforeAudits } from "./BeforeAudits";
import { History } from "./History";
import { ItemCommentsProvider, ReviewSubject } from "./itemComments";
import { ReviewPanel } from "./ReviewPanel";
import { RevisionDiff } from "./RevisionDiff";
import { useRecordOpenedDesign } from "./useYourDesigns";

const STATUS_STYLE: Record<string, string> = {
  approved: "bg-green-100 text-green-900",
  changes_requested: "bg-amber-100 text-amber-900",
  in_review: "bg-blue-100 text-blue-900",
  draft: "bg-slate-200 text-slate-800",
};

/** "2026-11-23 01:04 UTC" from an ISO date-time. */
function when(iso: string): string {
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

/** A bundle digest, short (first 12 hex digits) with the whole digest as its title. */
function Digest({ sha256 }: { sha256: string }) {
  return (
    <code className="text-xs" title={`sha256 ${sha256}`} data-sha256={sha256}>
      {sha256.slice(0, 12)}…
    </code>
  );
}

function Approval({ approval }: { approval: Schemas["ApprovalOut"] }) {
  return (
    <div data-testid="approval" className="mt-2 flex flex-wrap items-center gap-2 rounded border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-950">
      <p className="min-w-0 wrap-anywhere">
        Approved by <strong>{approval.reviewer}</strong> on {when(approval.approved_at)} · bundle sha256 <Digest sha256={approval.bundle_sha256} />
      </p>
      <CopyButton text={approval.bundle_sha256} label="Copy the approved bundle's full sha256" />
    </div>
  );
}

function RevisionNotes({ revision }: { revision: RevisionOut }) {
  const errors = errorFindings(revision.plan.findings).length;
  return (
    <>
      {revision.approval && <Approval approval={revision.approval} />}
      {revision.origin === "imported" && (
        <div data-testid="provenance" className="mt-2 rounded border border-dashed border-slate-400 bg-slate-50 px-3 py-2 text-sm text-slate-800">
          <p className="font-medium">Imported revision</p>
          {revision.provenance && <p className="mt-1 wrap-anywhere">{revision.provenance}</p>}
        </div>
      )}
      {revision.errors_acknowledged && (
        <p data-testid="errors-acknowledged" className="mt-2 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
          Saved with {errors > 0 ? errorCount(errors) : "error findings"}: the author read them and saved it anyway.
        </p>
      )}
    </>
  );
}

function Card({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" aria-label={title}>
      <h2 className="mb-3 text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function Drift({ designId }: { designId: string }) {
  const drift = useQuery({
    queryKey: ["design", designId, "drift"],
    queryFn: async () => unwrap(await api.GET("/api/v1/designs/{design_id}/drift", { params: { path: { design_id: designId } } })),
  });
  if (drift.isError) return <ErrorMessage error={drift.error} title="Could not check for newer advice" />;
  if (!drift.data || drift.data.changes.length === 0) return null;
  const d = drift.data;
  return (
    <div role="alert" className="rounded-lg border border-amber-400 bg-amber-50 p-4">
      <p className="font-semibold text-amber-950">
        Today's knowledge base would change this design: {d.changes.length} change(s) since revision {d.revision} was planned
        (knowledge base {d.from_kb} → {d.to_kb}).
      </p>
      <details className="mt-2">
        <summary className="cursor-pointer text-sm font-medium">Show the changes</summary>
        <div className="mt-2">
          <ChangesList changes={d.changes} from={d.from_as_of} to={d.to_as_of} error={null} />
        </div>
      </details>
    </div>
  );
}

function Reviews({ revision }: { revision: RevisionOut }) {
  if (revision.reviews.length === 0) return <Empty>No reviews of revision {revision.number} yet.</Empty>;
  return (
    <ul className="space-y-2">
      {revision.reviews.map((review) => {
        const approval = review.decision === "approve" && !review.imported;
        const style = review.imported
          ? "border-dashed border-slate-400 bg-slate-50 text-slate-700"
          : approval
            ? "border-green-300 border-l-4 border-l-green-700"
            : "border-slate-200";
        return (
          <li key={review.id} className={`rounded border p-2 text-sm wrap-anywhere ${style}`} data-testid={review.imported ? "review-imported" : "review"}>
            <p>
              {review.imported && (
                <span className="mr-1 inline-block rounded border border-dashed border-slate-500 bg-white px-1.5 text-xs font-medium text-slate-700">
                  imported, not verified
                </span>
              )}
              <strong>{review.reviewer}</strong> — {review.decision.replace("_", " ")} · {review.created_at.slice(0, 16).replace("T", " ")}
              <ReviewSubject review={review} plan={revision.plan} />
              {review.errors_acknowledged && <> · <span className="text-red-800">error findings acknowledged</span></>}
              {approval && review.bundle_sha256 && <> · bundle sha256 <Digest sha256={review.bundle_sha256} /></>}
            </p>
            {review.imported && review.decision === "approve" && (
              <p className="mt-1 text-xs">Imported from another site: it approves nothing here.</p>
            )}
            {review.comment && <p className="mt-1 whitespace-pre-wrap">{review.comment}</p>}
          </li>
        );
      })}
    </ul>
  );
}

export default function DesignPage() {
  const { designId = "", revision: revisionParam } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const capabilities = readCapabilities(location.hash);
  const design = useQuery({
    queryKey: ["design", designId],
    queryFn: async () => unwrap(await api.GET("/api/v1/designs/{design_id}", { params: { path: { design_id: designId } } })),
  });
  useRecordOpenedDesign(design.data);
  const wanted = revisionParam ? Number(revisionParam) : null;
  const revision = useQuery({
    queryKey: ["design", designId, "revision", wanted],
    enabled: wanted !== null,
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/designs/{design_id}/revisions/{number}", { params: { path: { design_id: designId, number: wanted ?? 1 } } })),
  });

  if (design.isPending) return <Loading what="the design" />;
  if (design.isError) return <ErrorMessage error={design.error} title="Could not open this design" />;
  const d = design.data;
  if (wanted !== null && revision.isPending) return <Loading what={`revision ${wanted}`} />;
  if (wanted !== null && revision.isError) return <ErrorMessage error={revision.error} title={`Could not open revision ${wanted}`} />;
  const shown = wanted !== null && revision.data ? revision.data : d.latest;
  const isLatest = shown.number === d.latest.number;
  const numbers = d.revisions.map((r) => r.number);

  function edit() {
    const params = encodeDraft(draftFromPlatform(d.latest.platform), { step: "0", design: d.id, base: String(d.latest.number) });
    navigate({ pathname: "/", search: `?${params.toString()}`, hash: location.hash });
  }

  return (
    <div className="space-y-4">
      <div>
        <p className="text-xs text-slate-600">Design <code>{d.id}</code></p>
        <h1 className="break-words text-2xl font-semibold tracking-tight">{d.name}</h1>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-sm">
          <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[d.state]}`} data-testid="design-state">
            {d.state_label}
          </span>
          <span>
            Showing revision {shown.number}{isLatest ? " (latest)" : ""} · knowledge base {shown.kb_version} · advice as of {shown.as_of} ·{" "}
            <span data-testid="revision-status">{shown.status.replace("_", " ")}</span>
          </span>
        </p>
        <RevisionNotes revision={shown} />
        <div className="mt-3 flex flex-wrap gap-2">
          {capabilities.edit && isLatest && (
            <button type="button" onClick={edit} className="rounded bg-blue-800 px-4 py-2 text-sm font-medium text-white">
              Edit (new revision)
            </button>
          )}
          <Link to={`/d/${d.id}/r/${shown.number}`} className="rounded border border-slate-400 bg-white px-3 py-2 text-sm">
            Link to this revision (read-only)
          </Link>
          <Link to={`/compare?design=${encodeURIComponent(d.id)}`} className="rounded border border-slate-400 bg-white px-3 py-2 text-sm">
            What if… (compare changes to the latest revision)
          </Link>
          <Link to={`/audit?design=${encodeURIComponent(d.id)}${location.hash}`} className="rounded border border-slate-400 bg-white px-3 py-2 text-sm">
            Audit what runs against this design
          </Link>
        </div>
      </div>
      {isLatest && <Drift designId={d.id} />}
      {numbers.length > 1 && (
        <Card title="Compare revisions">
          <RevisionDiff designId={d.id} numbers={numbers} />
        </Card>
      )}
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-[minmax(0,24rem)_minmax(0,1fr)]">
        <div className="min-w-0 space-y-4">
          <Card title="Revisions">
            <ul className="divide-y divide-slate-100">
              {d.revisions.map((r) => (
                <li key={r.number} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                  <Link to={`/d/${d.id}/r/${r.number}${location.hash}`} className="text-blue-800 underline" aria-current={r.number === shown.number ? "page" : undefined}>
                    Revision {r.number}
                  </Link>
                  <span className="text-xs text-slate-600">
                    saved {r.created_at.slice(0, 10)} · KB {r.kb_version}
                    {r.approval && <> · approved by {r.approval.reviewer}</>}
                  </span>
                  <span className="flex flex-wrap gap-1">
                    {r.origin === "imported" && (
                      <span className="rounded-full border border-dashed border-slate-500 px-2 py-0.5 text-xs text-slate-700">imported</span>
                    )}
                    {r.errors_acknowledged && <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs text-red-900">errors acknowledged</span>}
                    <span className={`rounded-full px-2 py-0.5 text-xs ${STATUS_STYLE[r.status]}`}>{r.status.replace("_", " ")}</span>
                  </span>
                </li>
              ))}
            </ul>
          </Card>
          <Card title={`Reviews of revision ${shown.number}`}>
            <Reviews revision={shown} />
            {capabilities.review && (
              <div className="mt-4 border-t border-slate-200 pt-4">
                <ReviewPanel key={shown.number} designId={d.id} revision={shown} token={capabilities.review} />
              </div>
            )}
          </Card>
          <Card title="Files">
            <Exports plan={shown.plan} source={{ designId: d.id, revision: shown.number }} />
          </Card>
          <Card title="Before (audits kept on the design)">
            <BeforeAudits designId={d.id} hash={location.hash} />
          </Card>
          <Card title="As built">
            <AsBuilt designId={d.id} revision={shown.number} token={capabilities.edit ?? null} />
          </Card>
          <Card title="History">
            <History designId={d.id} revisions={d.revisions} />
          </Card>
        </div>
        <div className="min-w-0 space-y-4">
          <ItemCommentsProvider designId={d.id} revision={shown} token={capabilities.review}>
            <PlanBody plan={shown.plan} changed={new Set()} />
          </ItemCommentsProvider>
        </div>
      </div>
    </div>
  );
}
