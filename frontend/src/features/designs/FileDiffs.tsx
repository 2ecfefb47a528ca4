import { type DiffLineKind, diffLineKind, type FileDiff, lineCounts } from "./revisionDiff";

const STATUS_WORDS: Record<FileDiff["status"], string> = { added: "new file", removed: "file removed", changed: "changed" };

const STATUS_STYLE: Record<FileDiff["status"], string> = {
  added: "bg-green-100 text-green-900",
  removed: "bg-red-100 text-red-900",
  changed: "bg-slate-200 text-slate-800",
};

// Colour says added or removed at a glance; the + and − each line starts with say it without.
const LINE_STYLE: Record<DiffLineKind, string> = {
  added: "bg-green-50 text-green-950",
  removed: "bg-red-50 text-red-950",
  hunk: "bg-blue-50 text-blue-900",
  header: "text-slate-600",
  same: "text-slate-800",
};

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function FileItem({ file }: { file: FileDiff }) {
  const { added, removed } = lineCounts(file);
  const leftOut = file.lines_left_out ?? 0;
  return (
    <li className="min-w-0" data-testid="file-diff">
      <details className="min-w-0 rounded border border-slate-200">
        <summary className="flex cursor-pointer flex-wrap items-baseline gap-x-2 px-2 text-sm hover:bg-slate-50">
          <code className="font-medium wrap-anywhere">{file.path}</code>
          <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATUS_STYLE[file.status]}`}>{STATUS_WORDS[file.status]}</span>
          <span className="text-xs text-slate-700">
            {plural(added, "line")} added, {removed} removed{leftOut > 0 ? " in what is shown" : ""}
          </span>
        </summary>
        {file.lines.length > 0 && (
          // Focusable so the keyboard can scroll a long line sideways.
          <pre tabIndex={0} aria-label={`Differences in ${file.path}`} className="overflow-x-auto border-t border-slate-200 bg-white py-1 text-xs leading-relaxed">
            <code className="block w-max min-w-full">
              {file.lines.map((line, index) => (
                <span key={index} className={`block px-2 ${LINE_STYLE[diffLineKind(line, index)]}`}>
                  {line}
                </span>
              ))}
            </code>
          </pre>
        )}
        {leftOut > 0 && (
          <p className="border-t border-slate-200 px-2 py-1 text-xs text-slate-700">
            Not shown, to keep the page small: {plural(leftOut, "more line")} of this comparison. Download both revisions&apos; bundles
            to compare the whole file.
          </p>
        )}
      </details>
    </li>
  );
}

/** The bundle files that differ, each folded under its path. */
export function FileDiffs({ files, label }: { files: readonly FileDiff[]; label: string }) {
  return (
    <ul aria-label={label} className="space-y-1.5">
      {files.map((file) => (
        <FileItem key={file.path} file={file} />
      ))}
    </ul>
  );
}
