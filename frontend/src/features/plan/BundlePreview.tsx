// Loaded with import() from Exports: this module brings fflate, highlight.js and its token colours.
import "./BundlePreview.css";
import { useMemo, useState } from "react";
import { CopyButton } from "../../components/CopyButton";
import { ErrorMessage } from "../../components/States";
import { TABS, highlight, unzipBundle, type BundleFile, type Language, type TabId } from "./bundleFiles";

function read(zip: Uint8Array): { files: BundleFile[] } | { error: unknown } {
  try {
    return { files: unzipBundle(zip) };
  } catch (error) {
    return { error };
  }
}

function Code({ text, language }: { text: string; language: Language }) {
  const html = useMemo(() => highlight(text, language), [text, language]);
  return (
    <pre className="max-h-[32rem] overflow-auto whitespace-pre-wrap wrap-anywhere rounded border border-slate-200 text-xs leading-relaxed">
      {/* highlight.js escapes the file text: the HTML holds only its own <span> tags. */}
      <code className={`hljs language-${language} block p-3`} dangerouslySetInnerHTML={{ __html: html }} />
    </pre>
  );
}

export default function BundlePreview({ zip }: { zip: Uint8Array }) {
  const result = useMemo(() => read(zip), [zip]);
  const files = "files" in result ? result.files : [];
  const tabs = TABS.filter((tab) => files.some((file) => file.tab === tab.id));
  const [tab, setTab] = useState<TabId | null>(null);
  const [chosen, setChosen] = useState<Partial<Record<TabId, string>>>({});

  const activeTab = tabs.find((t) => t.id === tab)?.id ?? tabs[0]?.id;
  const inTab = files.filter((file) => file.tab === activeTab);
  const file = inTab.find((f) => activeTab !== undefined && f.path === chosen[activeTab]) ?? inTab[0];

  if ("error" in result) {
    return <ErrorMessage error={result.error} title="The bundle could not be read" />;
  }
  if (file === undefined || activeTab === undefined) {
    return <p className="text-sm text-slate-600">The bundle has no files.</p>;
  }

  return (
    <section aria-label="Bundle files" className="min-w-0 rounded border border-slate-300 bg-white">
      <div role="tablist" aria-label="File groups" className="flex flex-wrap gap-1 border-b border-slate-300 p-2">
        {tabs.map((t) => {
          const count = files.filter((f) => f.tab === t.id).length;
          const selected = t.id === activeTab;
          return (
            <button
              key={t.id}
              type="button"
              role="tab"
              aria-selected={selected}
              onClick={() => setTab(t.id)}
              className={`rounded px-2.5 py-1 text-sm font-medium ${
                selected ? "bg-slate-800 text-white" : "text-slate-700 hover:bg-slate-100"
              }`}
            >
              {t.label} <span className={selected ? "text-slate-300" : "text-slate-500"}>({count})</span>
            </button>
          );
        })}
      </div>
      <div className="flex min-w-0 flex-col gap-3 p-3 md:flex-row">
        <ul aria-label="Files" className="flex shrink-0 flex-wrap gap-1 md:w-60 md:flex-col md:flex-nowrap">
          {inTab.map((f) => (
            <li key={f.path} className="min-w-0">
              <button
                type="button"
                aria-pressed={f.path === file.path}
                onClick={() => setChosen({ ...chosen, [activeTab]: f.path })}
                className={`w-full break-all rounded px-2 py-1 text-left font-mono text-xs ${
                  f.path === file.path ? "bg-sky-100 text-sky-900 ring-1 ring-sky-300" : "text-slate-700 hover:bg-slate-100"
                }`}
              >
                {f.path}
              </button>
            </li>
          ))}
        </ul>
        <div className="min-w-0 flex-1">
          <div className="mb-2 flex items-center justify-between gap-2">
            <h4 className="min-w-0 break-all font-mono text-sm font-semibold text-slate-800">{file.path}</h4>
            <span className="flex shrink-0 items-center gap-2">
              <span className="text-xs text-slate-500">{file.language === "plaintext" || file.language === "config" ? "text" : file.language}</span>
              <CopyButton text={file.text} label={`Copy ${file.path}`} />
            </span>
          </div>
          <Code text={file.text} language={file.language} />
        </div>
      </div>
    </section>
  );
}
