// Labelled inputs with an inline error that says how to fix the value.
import { useId } from "react";

interface Common {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
}

function Message({ id, error, hint }: { id: string; error?: string | undefined; hint?: string | undefined }) {
  if (error) {
    return (
      <p id={id} className="mt-1 text-xs text-red-700">
        {error}
      </p>
    );
  }
  return hint ? (
    <p id={id} className="mt-1 text-xs text-slate-600">
      {hint}
    </p>
  ) : null;
}

const inputClass = (error?: string) =>
  `mt-1 block w-full rounded border bg-white px-2 py-1.5 text-sm ${
    error ? "border-red-600" : "border-slate-400"
  }`;

export function TextField({
  label,
  error,
  hint,
  value,
  onChange,
  name,
  list,
  inputMode,
  placeholder,
}: Common & {
  value: string;
  onChange: (value: string) => void;
  name: string;
  list?: string[];
  inputMode?: "numeric" | "decimal" | "text";
  placeholder?: string;
}) {
  const id = useId();
  const listId = list ? `${id}-list` : undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        name={name}
        value={value}
        list={listId}
        inputMode={inputMode}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? `${id}-msg` : undefined}
        onChange={(event) => onChange(event.target.value)}
        className={inputClass(error)}
        autoComplete="off"
        spellCheck={false}
      />
      {list && (
        <datalist id={listId}>
          {list.map((item) => (
            <option key={item} value={item} />
          ))}
        </datalist>
      )}
      <Message id={`${id}-msg`} error={error} hint={hint} />
    </div>
  );
}

export function SelectField({
  label,
  error,
  hint,
  value,
  onChange,
  name,
  options,
  wide = false,
}: Common & {
  value: string;
  onChange: (value: string) => void;
  name: string;
  options: { value: string; label: string }[];
  /** Spans both columns of a two-column step, for choices whose labels are long. */
  wide?: boolean;
}) {
  const id = useId();
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800 wrap-anywhere">
        {label}
      </label>
      <select
        id={id}
        name={name}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? `${id}-msg` : undefined}
        onChange={(event) => onChange(event.target.value)}
        className={inputClass(error)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Message id={`${id}-msg`} error={error} hint={hint} />
    </div>
  );
}

export function CheckField({
  label,
  hint,
  checked,
  onChange,
  name,
  disabled = false,
}: {
  label: string;
  hint?: string;
  checked: boolean;
  onChange: (value: boolean) => void;
  name: string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-2 pt-5">
      <input
        id={id}
        name={name}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={hint ? `${id}-msg` : undefined}
        className="mt-0.5 h-4 w-4 accent-blue-800 disabled:opacity-50"
      />
      <div>
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {label}
        </label>
        {hint && (
          <p id={`${id}-msg`} className="text-xs text-slate-600">
            {hint}
          </p>
        )}
      </div>
    </div>
  );
}
