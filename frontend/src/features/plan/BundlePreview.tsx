// Loaded with import() from Exports: this module brings fflate, highlight.js and its token colours.
// The preview is a modal <dialog> over the whole viewport, so it is as wide from the saved
// design's narrow Files card as from the wizard: files listed first, then the chosen file's text.
import "./BundlePreview.css";
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { CopyButton } from "../../components/CopyButton";
import { ErrorMessage } from "../../components/States";
import { groupFiles, highlight, lineCount, unzipBundle, type BundleFile, type FileGroup, type TabId } from "./bundleFiles";

interface Props {
  /** The bundle exactly as the download button saves it. */
  zip: Uint8Array<ArrayBuffer>;
  /** The name the download button gives it: "nasplan-prod.zip". */
  fileName: string;
  /** The dialog closed (close button, Esc): the opener drops the preview and takes focus back. */
  onClose: () => void;
}

function read(zip: Uint8Array): { files: BundleFile[] } | { error: unknown } {
  try {
    return { files: unzipBundle(zip) };
  } catch (error) {
    return { error };
  }
}

function languageLabel(file: BundleFile): string {
  return file.language === "plaintext" || file.language === "config" ? "text" : file.language;
}

function saveZip(zip: Uint8Array<ArrayBuffer>, fileName: string) {
  const url = URL.createObjectURL(new Blob([zip], { type: "application/zip" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The text with line numbers; lines never wrap, the box scrolls sideways instead. */
function Code({ file }: { file: BundleFile }) {
  const html = useMemo(() => highlight(file.text, file.language), [file.text, file.language]);
  const numbers = useMemo(
    () => Array.from({ length: lineCount(file.text) }, (_, index) => index + 1).join("\n"),
    [file.text],
  );
  return (
    <div
      role="region"
      aria-label={`Text of ${file.path}`}
      tabIndex={0}
      className="max-h-[70dvh] min-h-40 overflow-auto overscroll-contain rounded border border-slate-300 bg-white text-xs leading-relaxed lg:max-h-none lg:flex-1"
    >
      <div className="flex min-w-max">
        <pre aria-hidden="true" className="sticky left-0 select-none border-r border-slate-200 bg-slate-50 px-2 py-3 text-right text-slate-600">
          {numbers}
        </pre>
        <pre className="flex-1">
          {/* highlight.js escapes the file text: the HTML holds only its own <span> tags. */}
          <code className={`hljs language-${file.language} block px-3 py-3`} dangerouslySetInnerHTML={{ __html: html }} />
        </pre>
      </div>
    </div>
  );
}

type GroupFilter = "all" | TabId;

interface FileListProps {
  groups: FileGroup[];
  filter: GroupFilter;
  onFilter: (filter: GroupFilter) => void;
  chosen: BundleFile;
  onChoose: (path: string) => void;
}

/** Team tabs (all files, or one team's), then the files under their team headings. */
function FileList({ groups, filter, onFilter, chosen, onChoose }: FileListProps) {
  const id = useId();
  const tablist = useRef<HTMLDivElement>(null);
  const tabs: { id: GroupFilter; label: string; count: number }[] = [
    { id: "all", label: "All files", count: groups.reduce((sum, group) => sum + group.files.length, 0) },
    ...groups.map((group) => ({ id: group.id, label: group.label, count: group.files.length })),
  ];
  const shown = filter === "all" ? groups : groups.filter((group) => group.id === filter);

  // The tab pattern's keys: arrows, Home and End move between tabs and choose the one reached.
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = tabs.findIndex((tab) => tab.id === filter);
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = (next + tabs.length) % tabs.length;
    onFilter(tabs[target]?.id ?? "all");
    tablist.current?.querySelectorAll<HTMLElement>("[role=tab]")[target]?.focus();
  }

  return (
    <section
      aria-label="Files in the bundle"
      className="max-h-[45dvh] overflow-y-auto overscroll-contain border-b border-slate-300 p-3 lg:max-h-none lg:border-r lg:border-b-0"
    >
      <div ref={tablist} role="tablist" aria-label="Teams" onKeyDown={onKeyDown} className="mb-3 flex flex-wrap gap-1">
        {tabs.map((tab) => {
          const selected = tab.id === filter;
          return (
            <button
              key={tab.id}
              id={`${id}-tab-${tab.id}`}
              type="button"
              role="tab"
              aria-selected={selected}
              aria-controls={`${id}-panel`}
              tabIndex={selected ? 0 : -1}
              onClick={() => onFilter(tab.id)}
              className={`rounded px-2 py-0.5 text-xs font-medium ${
                selected ? "bg-slate-800 text-white" : "text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100"
              }`}
            >
              {tab.label} <span className={selected ? "text-slate-300" : "text-slate-600"}>({tab.count})</span>
            </button>
          );
        })}
      </div>
      <div id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-tab-${filter}`}>
        {shown.map((group) => (
          <div key={group.id} className="mb-4 last:mb-0">
            <h3 className="mb-1 text-sm font-semibold text-slate-800">
              {group.label} <span className="font-normal text-slate-600">({group.files.length})</span>
            </h3>
            <ul aria-label={`${group.label} files`} className="flex flex-col gap-0.5">
              {group.files.map((file) => {
                const selected = file.path === chosen.path;
                const descriptionId = `${id}-${file.path}`;
                return (
                  <li key={file.path}>
                    <button
                      type="button"
                      aria-pressed={selected}
                      aria-describedby={file.description === null ? undefined : descriptionId}
                      onClick={() => onChoose(file.path)}
                      className={`w-full rounded px-2 py-1 text-left ${
                        selected ? "bg-sky-100 text-sky-900 ring-1 ring-sky-300" : "text-slate-800 hover:bg-slate-100"
                      }`}
                    >
                      <span className="block break-all font-mono text-xs">{file.path}</span>
                      {file.description !== null && (
                        // Read once, as the button's description, not again as part of its name.
                        <span id={descriptionId} aria-hidden="true" className="block text-xs text-slate-700">
                          {file.description}
                        </span>
                      )}
                    </button>
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </div>
    </section>
  );
}

function FileView({ file }: { file: BundleFile }) {
  const lines = lineCount(file.text);
  return (
    <section aria-label={`File ${file.path}`} className="flex min-w-0 flex-col gap-2 p-3 lg:min-h-0">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="break-all font-mono text-sm font-semibold text-slate-900">{file.path}</h3>
          {file.description !== null && <p className="text-sm text-slate-700">{file.description}</p>}
        </div>
        <span className="flex shrink-0 items-center gap-2">
          <span className="text-xs text-slate-600">
            {lines} {lines === 1 ? "line" : "lines"}, {languageLabel(file)}
          </span>
          <CopyButton text={file.text} label={`Copy ${file.path}`} />
        </span>
      </div>
      <Code file={file} />
    </section>
  );
}

export default function BundlePreview({ zip, fileName, onClose }: Props) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const result = useMemo(() => read(zip), [zip]);
  const files = "files" in result ? result.files : [];
  const groups = groupFiles(files);
  const [filter, setFilter] = useState<GroupFilter>("all");
  const [chosenPath, setChosenPath] = useState<string | null>(null);
  const file = files.find((f) => f.path === chosenPath) ?? groups[0]?.files[0];

  /** A team's tab shows one of its files: the one shown if it is the team's, else its first. */
  function showGroup(next: GroupFilter) {
    setFilter(next);
    const group = groups.find((g) => g.id === next);
    if (group !== undefined && !group.files.some((f) => f.path === file?.path)) setChosenPath(group.files[0]?.path ?? null);
  }

  useEffect(() => {
    const dialog = dialogRef.current;
    // No close() on clean-up: StrictMode runs effects twice, and a close would end the preview.
    if (dialog !== null && !dialog.open) {
      dialog.showModal();
      closeRef.current?.focus();
    }
  }, []);

  const button = "rounded border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium text-slate-900 hover:bg-slate-100";
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      onClose={onClose}
      className="inset-0 m-0 h-auto max-h-none w-auto max-w-none overflow-hidden bg-white p-0 text-slate-900 shadow-xl backdrop:bg-black/60 sm:inset-4 sm:rounded-lg sm:border sm:border-slate-300"
    >
      <div className="flex h-full flex-col">
        <header className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-slate-300 p-3">
          <div className="min-w-60 flex-1">
            <h2 id={titleId} className="text-lg font-semibold">
              Files in the config bundle
            </h2>
            <p className="text-sm text-slate-700">
              {files.length} files in {fileName}, grouped by team. Long lines scroll sideways; they never wrap.
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <button type="button" className={button} onClick={() => saveZip(zip, fileName)}>
              Download the bundle (.zip)
            </button>
            <button ref={closeRef} type="button" className={button} onClick={() => dialogRef.current?.close()}>
              Close
            </button>
          </div>
        </header>
        <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain lg:grid lg:grid-cols-[20rem_minmax(0,1fr)] lg:grid-rows-[minmax(0,1fr)] lg:overflow-hidden">
          {"error" in result ? (
            <div className="p-3 lg:col-span-2">
              <ErrorMessage error={result.error} title="The bundle could not be read" />
            </div>
          ) : file === undefined ? (
            <p className="p-3 text-sm text-slate-700 lg:col-span-2">The bundle has no files.</p>
          ) : (
            <>
              <FileList groups={groups} filter={filter} onFilter={showGroup} chosen={file} onChoose={setChosenPath} />
              <FileView file={file} />
            </>
          )}
        </div>
      </div>
    </dialog>
  );
}
