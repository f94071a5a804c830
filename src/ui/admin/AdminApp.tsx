/** The administrator area (Portuguese only). Server-rendered in its first state: checking the session. */
export default function AdminApp() {
  return (
    <main id="main" className="admin-shell">
      <p role="status">Verificando autenticação...</p>
    </main>
  );
}
