import { useCallback, useEffect, useRef, useState } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { authStatus } from "../../shared/admin_schemas.ts";
import { getJson, onSessionEnded } from "./api.ts";
import { ToastProvider, useToast } from "./toast.tsx";
import { LoginCard } from "./LoginCard.tsx";
import { Dashboard } from "./Dashboard.tsx";

/** docs/PRODUCT.md, _Dashboard_: data never goes stale, no refetch on focus, no polling, no retries. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: Infinity, refetchOnWindowFocus: false, refetchInterval: false, retry: false },
      mutations: { retry: false },
    },
  });
}

type AuthState = { kind: "checking" } | { kind: "anonymous" } | { kind: "signed-in"; email: string };

/**
 * The administrator area (Portuguese only). The server renders it in its first state, checking the session;
 * the browser then asks the server and shows the login card or the dashboard.
 */
export default function AdminApp() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <AdminArea queryClient={queryClient} />
      </ToastProvider>
    </QueryClientProvider>
  );
}

function AdminArea({ queryClient }: { queryClient: QueryClient }) {
  const toast = useToast();
  const [auth, setAuth] = useState<AuthState>({ kind: "checking" });
  const signedIn = useRef(false);
  signedIn.current = auth.kind === "signed-in";

  useEffect(() => {
    let live = true;
    getJson("/api/admin/check-auth", authStatus)
      .then((status) => {
        if (!live) return;
        setAuth(
          status.isAuthenticated && status.email
            ? { kind: "signed-in", email: status.email }
            : { kind: "anonymous" },
        );
      })
      .catch((error) => {
        console.error("auth check failed", error); // docs/PRODUCT.md, _Errors_: stay signed out, log only
        if (live) setAuth({ kind: "anonymous" });
      });
    return () => {
      live = false;
    };
  }, []);

  const onSignedIn = useCallback((email: string) => setAuth({ kind: "signed-in", email }), []);
  const onSignedOut = useCallback(() => {
    signedIn.current = false;
    queryClient.clear(); // the next administrator session starts from fresh data
    setAuth({ kind: "anonymous" });
  }, [queryClient]);

  // Any 401 while signed in (the session was ended elsewhere, or expired): back to the login card, once,
  // however many cards were loading.
  useEffect(() => {
    onSessionEnded(() => {
      if (!signedIn.current) return;
      onSignedOut();
      toast({
        title: "Sessão encerrada",
        description: "Sua sessão expirou ou foi encerrada em outro lugar. Entre novamente.",
        variant: "destructive",
      });
    });
    return () => onSessionEnded(undefined);
  }, [onSignedOut, toast]);

  return (
    <>
      {auth.kind === "checking" && (
        <main id="main" className="admin-shell">
          <p role="status" className="admin-checking">Verificando autenticação...</p>
        </main>
      )}
      {auth.kind === "anonymous" && <LoginCard onSignedIn={onSignedIn} />}
      {auth.kind === "signed-in" && <Dashboard email={auth.email} onSignedOut={onSignedOut} />}
    </>
  );
}
