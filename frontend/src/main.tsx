import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode, lazy } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider, createBrowserRouter } from "react-router";
import { Layout } from "./components/Layout";
import { RouteError } from "./components/States";
import { WizardPage } from "./features/wizard/WizardPage";
import "./index.css";

// The wizard is the landing page; everything else loads when first visited.
const RulesPage = lazy(() => import("./features/knowledge/RulesPage"));
const RulePage = lazy(() => import("./features/knowledge/RulePage"));
const DesignPage = lazy(() => import("./features/designs/DesignPage"));
const ComparePage = lazy(() => import("./features/compare/ComparePage"));
const AuditPage = lazy(() => import("./features/audit/AuditPage"));
const YourDesignsPage = lazy(() => import("./features/designs/YourDesignsPage"));

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 60_000 } },
});

const router = createBrowserRouter([
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      { path: "/", element: <WizardPage /> },
      { path: "/compare", element: <ComparePage /> },
      { path: "/audit", element: <AuditPage /> },
      { path: "/rules", element: <RulesPage /> },
      { path: "/rules/:ruleId", element: <RulePage /> },
      { path: "/designs", element: <YourDesignsPage /> },
      { path: "/d/:designId", element: <DesignPage /> },
      { path: "/d/:designId/r/:revision", element: <DesignPage /> },
      { path: "*", element: <RouteError /> },
    ],
  },
]);

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
