import { useId, useState } from "react";
import { THEMES, type Theme, parseTheme, readTheme, setTheme } from "../lib/theme";

const LABELS: Record<Theme, string> = { system: "System", light: "Light", dark: "Dark" };

/** Theme picker for the header: follow the system, or force light or dark. */
export function ThemeToggle() {
  const id = useId();
  const [theme, setLocal] = useState<Theme>(() => readTheme());
  return (
    <div className="flex items-center gap-1.5 text-xs text-blue-100">
      <label htmlFor={id}>Theme</label>
      <select
        id={id}
        value={theme}
        onChange={(e) => {
          const next = parseTheme(e.target.value);
          setLocal(next);
          setTheme(next);
        }}
        className="rounded border border-blue-200 bg-blue-900 px-1.5 py-1 text-xs text-white"
      >
        {THEMES.map((t) => (
          <option key={t} value={t}>
            {LABELS[t]}
          </option>
        ))}
      </select>
    </div>
  );
}
