import { lazy, Suspense, useRef, useState } from "react";
import { ApiError, attachmentName, download, toApiError, type Platform, type PlanView } from "../../api/client";
import { ErrorMessage } from "../../components/States";

// fflate, highlight.js and the preview load only when someone asks for the preview.
const BundlePreview = lazy(() => import("./BundlePreview"));

interface Props {
  plan: PlanView;
  /** Unsaved plan: files come from the platform. Saved: from the revision's own endpoints. */
  source: { platform: Platform } | { designId: string; revision: number };
}

function jsonPost(platform: Platform): RequestInit {
  return { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(platform) };
}

const ACTIONS = {
  bundle: "Download config bundle (.zip)",
  runbook: "Runbook (Markdown)",
  print: "Runbook print view",
  plan: "Plan (JSON)",
  preview: "Preview the files",
};

export function Exports({ plan, source }: Props) {
  const [error, setError] = useState<unknown>(null);
  const [errorTitle, setErrorTitle] = useState("Download failed");
  const [preview, setPreview] = useState<{ key: string; zip: Uint8Array<ArrayBuffer>; fileName: string } | null>(null);
  const [loadingPreview, setLoadingPreview] = useState(false);
  const previewButton = useRef<HTMLButtonElement>(null);
  const base = "designId" in source ? `/api/v1/designs/${source.designId}/revisions/${source.revision}` : "/api/v1/plans";
  const init = "platform" in source ? jsonPost(source.platform) : {};
  const name = plan.platform.layout.db_name.toLowerCase();
  // The preview belongs to the plan it was made from: a changed platform hides it.
  const previewKey = `${base}|${typeof init.body === "string" ? init.body : ""}`;
  const shown = preview !== null && preview.key === previewKey ? preview : null;

  async function run(action: () => Promise<void>, title = "Download failed") {
    setError(null);
    setErrorTitle(title);
    try {
      await action();
    } catch (caught) {
      setError(caught);
    }
  }

  /** The same zip the download button saves (for a saved revision, the approved one), kept in memory. */
  async function loadPreview() {
    setLoadingPreview(true);
    void import("./BundlePreview"); // fetch the code while the zip downloads
    try {
      const response = await fetch(`${base}/bundle`, init);
      if (!response.ok) {
        let body: unknown;
        try {
          body = await response.json();
        } catch {
          body = undefined;
        }
        throw toApiError(response.status, body);
      }
      // The name the download button saves under (a saved revision's ends in -rN).
      const fileName = attachmentName(response, `nasplan-${name}.zip`);
      setPreview({ key: previewKey, zip: new Uint8Array(await response.arrayBuffer()), fileName });
    } finally {
      setLoadingPreview(false);
    }
  }

  async function printView() {
    // Open the tab in the click itself so the browser does not treat it as a pop-up.
    const tab = window.open("", "_blank");
    const response = await fetch(`${base}/runbook?format=html`, init);
    if (!response.ok) {
      tab?.close();
      throw new ApiError(response.status, "The runbook could not be produced.");
    }
    const url = URL.createObjectURL(new Blob([await response.text()], { type: "text/html" }));
    if (tab) tab.location.href = url;
  }

  function planJson() {
    const url = URL.createObjectURL(new Blob([JSON.stringify(plan, null, 2)], { type: "application/json" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = `nasplan-${name}-plan.json`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  const button = "rounded border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-100";
  return (
    <div>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={button} onClick={() => void run(() => download(`${base}/bundle`, init, `nasplan-${name}.zip`))}>
          {ACTIONS.bundle}
        </button>
        <button type="button" className={button} onClick={() => void run(() => download(`${base}/runbook?format=md`, init, `nasplan-${name}-runbook.md`))}>
          {ACTIONS.runbook}
        </button>
        <button type="button" className={button} onClick={() => void run(printView)}>
          {ACTIONS.print}
        </button>
        <button type="button" className={button} onClick={planJson}>
          {ACTIONS.plan}
        </button>
        <button
          ref={previewButton}
          type="button"
          className={button}
          aria-haspopup="dialog"
          disabled={loadingPreview}
          onClick={() => void run(loadPreview, "Preview failed")}
        >
          {loadingPreview ? "Loading the files…" : ACTIONS.preview}
        </button>
      </div>
      {error !== null && <div className="mt-2"><ErrorMessage error={error} title={errorTitle} /></div>}
      {shown !== null && (
        <Suspense fallback={<p className="mt-3 text-sm text-slate-600">Loading the preview…</p>}>
          <BundlePreview
            zip={shown.zip}
            fileName={shown.fileName}
            onClose={() => {
              setPreview(null);
              // The button was disabled while the files loaded, so the browser has nothing to return focus to.
              previewButton.current?.focus();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}

/** While an answer needs a fix the files would not match the answers shown: the buttons stay,
 * disabled, with the reason. */
export function ExportsPaused() {
  return (
    <div className="mt-4">
      <div className="flex flex-wrap gap-2">
        {Object.values(ACTIONS).map((label) => (
          <button
            key={label}
            type="button"
            disabled
            aria-describedby="exports-paused"
            className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-500"
          >
            {label}
          </button>
        ))}
      </div>
      <p id="exports-paused" className="mt-2 text-xs text-slate-600">
        The files wait for the answers the plan still needs (listed under the steps): they must match every answer you see.
      </p>
    </div>
  );
}
