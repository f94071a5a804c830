import { useCallback, useRef, useState } from "react";
import { MutationCache, QueryCache, QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { authStatus } from "../../shared/admin_schemas.ts";
import { getJson, SessionEnded } from "./api.ts";
import { ToastProvider, useToast } from "./toast.tsx";
import { LoginCard } from "./LoginCard.tsx";
import { Dashboard } from "./Dashboard.tsx";

/**
 * docs/PRODUCT.md, _Dashboard_: data never goes stale, no refetch on focus, no polling, no retries. Every
 * query and mutation that fails because the session ended elsewhere (SessionEnded, a 401) calls
 * `onSessionEnded`: the one place that handles it, whichever card or form made the call.
 */
export function createQueryClient(onSessionEnded: () => void = () => {}): QueryClient {
  const ended = (error: unknown) => {
    if (error instanceof SessionEnded) onSessionEnded();
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError: ended }),
    mutationCache: new MutationCache({ onError: ended }),
    defaultOptions: {
      queries: { staleTime: Infinity, refetchOnWindowFocus: false, refetchInterval: false, retry: false },
      mutations: { retry: false },
    },
  });
}

type AuthState = { kind: "checking" } | { kind: "anonymous" } | { kind: "signed-in"; email: string };

const ANONYMOUS: AuthState = { kind: "anonymous" };
const CHECKING: AuthState = { kind: "checking" };

/** The server's word on the session; a failed check leaves the page signed out (docs/PRODUCT.md, _Errors_). */
async function checkAuth(): Promise<AuthState> {
  try {
    const status = await getJson("/api/admin/check-auth", authStatus);
    return status.isAuthenticated && status.email ? { kind: "signed-in", email: status.email } : ANONYMOUS;
  } catch (error) {
    console.error("auth check failed", error); // log only
    return ANONYMOUS;
  }
}

/**
 * The administrator area (Portuguese only). The server renders it in its first state, checking the session;
 * the browser then asks the server and shows the login card or the dashboard.
 */
export default function AdminApp() {
  return (
    <ToastProvider>
      <AdminArea />
    </ToastProvider>
  );
}

/** Owns the query client and the session this page knows of (after a sign-in or sign-out on it). */
function AdminArea() {
  const toast = useToast();
  // null until this page signs in or out: the server's check decides until then.
  const [known, setKnown] = useState<AuthState | null>(null);
  const signedIn = useRef(false);

  function leave(client: QueryClient) {
    signedIn.current = false;
    client.clear(); // the next administrator session starts from fresh data
    setKnown(ANONYMOUS);
  }

  const [queryClient] = useState(() => {
    // Any 401 while signed in (the session was ended elsewhere, or expired): back to the login card, once,
    // however many cards were loading.
    const client = createQueryClient(() => {
      if (!signedIn.current) return;
      leave(client);
      toast({
        title: "Sessão encerrada",
        description: "Sua sessão expirou ou foi encerrada em outro lugar. Entre novamente.",
        variant: "destructive",
      });
    });
    return client;
  });

  const onSignedIn = useCallback((email: string) => setKnown({ kind: "signed-in", email }), []);
  // `leave` only touches a ref and a state setter, both stable.
  const onSignedOut = useCallback(() => leave(queryClient), [queryClient]);

  return (
    <QueryClientProvider client={queryClient}>
      <AdminScreen known={known} signedIn={signedIn} onSignedIn={onSignedIn} onSignedOut={onSignedOut} />
    </QueryClientProvider>
  );
}

interface AdminScreenProps {
  known: AuthState | null;
  signedIn: { current: boolean };
  onSignedIn: (email: string) => void;
  onSignedOut: () => void;
}

function AdminScreen({ known, signedIn, onSignedIn, onSignedOut }: AdminScreenProps) {
  const check = useQuery({ queryKey: ["check-auth"], queryFn: checkAuth, enabled: known === null });
  const auth = known ?? check.data ?? CHECKING;
  signedIn.current = auth.kind === "signed-in";
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
