import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { ApiError } from "../api/client";

export function Loading({ what }: { what: string }) {
  return (
    <p role="status" className="animate-pulse text-sm text-slate-600">
      Loading {what}…
    </p>
  );
}

export function ErrorMessage({ error, title }: { error: unknown; title?: string }) {
  const message =
    error instanceof ApiError
      ? error.message
      : error instanceof Error
        ? `${error.message}. Check the connection and try again.`
        : "Something went wrong.";
  return (
    <div role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900">
      <p className="font-semibold">{title ?? "Could not load this"}</p>
      <p className="mt-1">{message}</p>
    </div>
  );
}

export function Empty({ children }: { children: React.ReactNode }) {
  return <p className="rounded border border-dashed border-slate-300 p-4 text-sm text-slate-600">{children}</p>;
}

export function RouteError() {
  const error = useRouteError();
  const notFound = !error || (isRouteErrorResponse(error) && error.status === 404);
  return (
    <div className="mx-auto max-w-xl p-6">
      <h1 className="text-xl font-semibold">{notFound ? "Page not found" : "This page failed"}</h1>
      <p className="mt-2 text-sm text-slate-700">
        {notFound ? "There is nothing at this address." : "An unexpected error stopped the page."}{" "}
        <Link className="text-blue-800 underline" to="/">
          Start a new plan
        </Link>
        .
      </p>
    </div>
  );
}
