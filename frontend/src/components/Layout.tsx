import { useQuery } from "@tanstack/react-query";
import { Suspense } from "react";
import { NavLink, Outlet } from "react-router";
import { api, unwrap } from "../api/client";
import { Loading } from "./States";
import { ThemeToggle } from "./ThemeToggle";

function navClass({ isActive }: { isActive: boolean }): string {
  return `rounded px-3 py-2 text-sm font-medium whitespace-nowrap ${
    isActive ? "bg-blue-800 text-white" : "text-blue-50 hover:bg-blue-800"
  }`;
}

export function Layout() {
  const health = useQuery({
    queryKey: ["health"],
    queryFn: async () => unwrap(await api.GET("/api/v1/health")),
  });
  return (
    <div className="min-h-screen">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:m-2 focus:bg-white focus:p-2">
        Skip to content
      </a>
      <header className="bg-blue-900 text-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
          <NavLink to="/" className="text-lg font-bold tracking-tight">
            nasplan <span className="font-normal text-blue-200">· Oracle on NFS</span>
          </NavLink>
          <nav aria-label="Main" className="flex flex-wrap gap-1">
            <NavLink to="/" end className={navClass}>
              Plan
            </NavLink>
            <NavLink to="/compare" className={navClass}>
              What if
            </NavLink>
            <NavLink to="/audit" className={navClass}>
              Audit
            </NavLink>
            <NavLink to="/rules" className={navClass}>
              Knowledge
            </NavLink>
            <NavLink to="/designs" className={navClass}>Your designs</NavLink>
          </nav>
          <div className="ml-auto flex flex-wrap items-center gap-x-4 gap-y-1">
            <p className="text-xs text-blue-100">
              {health.data ? `Knowledge base ${health.data.kb_version} · ${health.data.rules} rules` : "\u00a0"}
            </p>
            <ThemeToggle />
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-7xl px-4 py-6">
        <Suspense fallback={<Loading what="page" />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
