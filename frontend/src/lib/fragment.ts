// Capability tokens travel in the URL fragment (#edit=…, #review=…): browsers never send the
// fragment to the server, so the tokens stay out of server and proxy logs.
export interface Capabilities {
  edit: string | null;
  review: string | null;
}

export function readCapabilities(hash: string): Capabilities {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  return { edit: params.get("edit"), review: params.get("review") };
}

export function capabilityHash(kind: "edit" | "review", token: string): string {
  return `#${new URLSearchParams({ [kind]: token }).toString()}`;
}
