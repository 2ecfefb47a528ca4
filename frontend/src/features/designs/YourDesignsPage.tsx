import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { Empty } from "../../components/States";
import { capabilityHash } from "../../lib/fragment";
import { useYourDesigns } from "./useYourDesigns";
import { forgetAllDesigns, forgetDesign, forgetEditLink, type YourDesign } from "./yourDesigns";

/** "2026-11-23 01:04 UTC" from an ISO date-time. */
function when(iso: string): string {
  return `${new Date(iso).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

const buttonClass = "rounded border border-slate-400 bg-white px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-100";

function DesignRow({ design, onForget }: { design: YourDesign; onForget: (message: string) => void }) {
  const href = `/d/${design.id}${design.editToken ? capabilityHash("edit", design.editToken) : ""}`;
  return (
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 rounded-lg border border-slate-200 bg-white p-3 shadow-sm" data-testid="your-design">
      <div className="min-w-0">
        <Link to={href} className="font-medium break-words text-blue-800 underline">
          {design.name}
        </Link>
        <p className="mt-1 text-xs text-slate-600">
          Design <code>{design.id}</code> · last saved or opened <time dateTime={design.lastOpened}>{when(design.lastOpened)}</time>
          {design.editToken && " · edit link remembered"}
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        {design.editToken && (
          <button
            type="button"
            className={buttonClass}
            aria-label={`Forget the edit link of ${design.name}`}
            onClick={() => forgetEditLink(design.id) && onForget(`Forgot the edit link of “${design.name}”.`)}
          >
            Forget the edit link
          </button>
        )}
        <button
          type="button"
          className={buttonClass}
          aria-label={`Forget ${design.name}`}
          onClick={() => forgetDesign(design.id) && onForget(`Forgot “${design.name}”.`)}
        >
          Forget
        </button>
      </div>
    </li>
  );
}

function ForgetAll({ count, onForget }: { count: number; onForget: (message: string) => void }) {
  const [asking, setAsking] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirm.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button type="button" className={buttonClass} onClick={() => setAsking(true)}>
        Forget all
      </button>
    );
  }
  return (
    <div role="group" aria-label="Forget all designs" className="rounded border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950">
      <p>Forget all {count} design(s) on this browser? The designs stay on the server: only this list and any remembered edit links go.</p>
      <div className="mt-2 flex flex-wrap gap-2">
        <button ref={confirm} type="button" className="rounded bg-blue-800 px-3 py-1.5 text-sm font-medium text-white" onClick={() => forgetAllDesigns() && onForget("Forgot all designs.")}>
          Yes, forget all
        </button>
        <button type="button" className={buttonClass} onClick={() => setAsking(false)}>
          Keep them
        </button>
      </div>
    </div>
  );
}

export default function YourDesignsPage() {
  const designs = useYourDesigns();
  const [message, setMessage] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);
  // The pressed button is gone with its row: the keyboard goes back to the top of the page.
  function forgotten(text: string) {
    setMessage(text);
    heading.current?.focus();
  }
  return (
    <div className="max-w-3xl space-y-4">
      <div>
        <h1 ref={heading} tabIndex={-1} className="text-2xl font-semibold tracking-tight focus:outline-none">
          Your designs
        </h1>
        <p className="mt-1 text-sm text-slate-700">
          The designs saved or opened in this browser, the most recent first. This list lives only in this browser: the server
          does not keep it, and other browsers and people do not see it.
        </p>
      </div>
      <p role="status" className="text-sm text-slate-700 empty:hidden">
        {message}
      </p>
      {designs.length === 0 ? (
        <Empty>
          No designs here yet. A design is listed here when you save it at the last step of the{" "}
          <Link to="/" className="text-blue-800 underline">
            planner
          </Link>{" "}
          or open its link in this browser, so you can find it again after closing the tab.
        </Empty>
      ) : (
        <>
          <ul aria-label="Designs kept in this browser" className="space-y-2">
            {designs.map((design) => (
              <DesignRow key={design.id} design={design} onForget={forgotten} />
            ))}
          </ul>
          <ForgetAll count={designs.length} onForget={forgotten} />
        </>
      )}
    </div>
  );
}
