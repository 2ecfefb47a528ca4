// The compare page's state mirrored in its URL: read from the link, written back on each change.
import { useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { type CompareState, decodeCompare, encodeCompare } from "./model";

/** The state and how to change it; `push` adds a history entry instead of replacing the current one. */
export function useCompareUrl(): [CompareState, (next: CompareState, push?: boolean) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  // As in the wizard: the URL is the record, the state mirrors it so inputs update at once.
  const [state, setState] = useState<CompareState>(() => decodeCompare(location.search));
  const [seenSearch, setSeenSearch] = useState(location.search);
  const [written] = useState(() => new Set<string>());
  if (seenSearch !== location.search) {
    setSeenSearch(location.search);
    if (written.has(location.search)) written.delete(location.search);
    else setState(decodeCompare(location.search));
  }

  function update(next: CompareState, push = false) {
    const search = `?${encodeCompare(next).toString()}`;
    setState(next);
    written.add(search);
    navigate({ search }, { replace: !push });
  }

  return [state, update];
}
