import { useCallback, useEffect, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FilterKey, readView, writeView } from "../../shared/filters.ts";
import { sendJson } from "./api.ts";
import { today } from "./format.ts";
import { useToast } from "./toast.tsx";
import { PasswordPanel } from "./PasswordPanel.tsx";
import { PeriodPicker } from "./PeriodPicker.tsx";
import { ConversionMetrics, Funnel, LeadMetrics, VisitMetrics } from "./Metrics.tsx";
import { ChartSection } from "./ChartSection.tsx";
import { EngagementMetrics, LivePanel, PageTimeRanking } from "./Engagement.tsx";
import { LeadList } from "./LeadList.tsx";
import { Rankings } from "./Rankings.tsx";
import { ConversionTable } from "./ConversionTable.tsx";
import { ChannelConversionTable, ChannelsPanel } from "./ChannelsPanel.tsx";
import { WhatsappMetrics } from "./WhatsappPanel.tsx";
import { FirstContactPanel } from "./FirstContactPanel.tsx";
import { LgpdPanel } from "./LgpdPanel.tsx";
import { DestinationsPanel } from "./DestinationsPanel.tsx";
import { SystemPanel, VersionFooter } from "./SystemPanel.tsx";
import { WeeklyReportPanel } from "./WeeklyReportPanel.tsx";
import type { Period } from "./queries.ts";
import { AddFilter } from "./filter_context.tsx";
import { FilterChips } from "./FilterChips.tsx";
import { UtmDetailPanels } from "./UtmDetailPanel.tsx";
import { AudiencePanels } from "./AudiencePanels.tsx";

/**
 * The view (period and filters) the address names; no period in it: this month (docs/PRODUCT.md,
 * _Dashboard_).
 */
function viewOfAddress(): Period {
  return readView(location.search, today());
}

/**
 * The view lives in the address: each change is a history entry (back walks them), a reload or a pasted link
 * opens the same view (the login card keeps the address, so it opens after sign-in too).
 */
function useViewInAddress(): [Period, (p: Period) => void] {
  const [view, setView] = useState<Period>(viewOfAddress);
  useEffect(() => {
    const onPop = () => setView(viewOfAddress());
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, []);
  const change = useCallback((p: Period) => {
    const q = writeView({ ...p, filters: p.filters ?? {} });
    const url = location.pathname + (q ? "?" + q : "") + location.hash;
    if (url !== location.pathname + location.search + location.hash) history.pushState(null, "", url);
    setView(p);
  }, []);
  return [view, change];
}

/**
 * The signed-in dashboard: header, password panel, then the sections in the order of docs/PRODUCT.md,
 * _Dashboard_.
 */
export function Dashboard({ email, onSignedOut }: { email: string; onSignedOut: () => void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [period, setPeriod] = useViewInAddress();
  const filters = period.filters ?? {};
  const addFilter = useCallback(
    (key: FilterKey, value: string) => setPeriod({ ...period, filters: { ...filters, [key]: value } }),
    [period, filters, setPeriod],
  );
  const removeFilter = (key: FilterKey) => {
    const next = { ...filters };
    delete next[key];
    setPeriod({ ...period, filters: next });
  };
  const [passwordOpen, setPasswordOpen] = useState(false);
  const signOut = useMutation({
    mutationFn: () => sendJson("POST", "/api/admin/logout"),
    onSuccess: () => {
      toast({ title: "Logout realizado", description: "Você foi desconectado com sucesso." });
      onSignedOut();
    },
    onError: () => toast({ title: "Erro", description: "Erro ao fazer logout", variant: "destructive" }),
  });
  const leaving = signOut.isPending || signOut.isSuccess;

  return (
    <div className="admin-page">
      <header className="admin-top">
        <div className="admin-top-inner">
          <div>
            <h1>Painel Administrativo</h1>
            <p className="admin-muted">
              Logado como <strong data-testid="admin-email">{email}</strong>
            </p>
          </div>
          <div className="admin-actions">
            <button
              type="button"
              className="btn btn-outline btn-small"
              onClick={() => queryClient.invalidateQueries()}
              title="Buscar os dados mais recentes"
            >
              Atualizar
            </button>
            <button
              type="button"
              className="btn btn-outline btn-small"
              aria-expanded={passwordOpen}
              aria-controls="password-panel"
              onClick={() => setPasswordOpen(!passwordOpen)}
            >
              Alterar Senha
            </button>
            <button
              type="button"
              className="btn btn-primary btn-small"
              onClick={() => signOut.mutate()}
              disabled={leaving}
            >
              Sair
            </button>
          </div>
        </div>
      </header>
      <main id="main" className="admin-main">
        {passwordOpen && <PasswordPanel />}
        <PeriodPicker period={period} onChange={setPeriod} />
        <AddFilter.Provider value={addFilter}>
          <FilterChips
            filters={filters}
            onRemove={removeFilter}
            onClear={() => setPeriod({ ...period, filters: {} })}
          />
          <div className="metrics-row with-whatsapp">
            <VisitMetrics period={period} />
            <ConversionMetrics period={period} />
            <WhatsappMetrics period={period} />
          </div>
          <EngagementMetrics period={period} />
          <div className="conversion-pair">
            <LivePanel />
            <PageTimeRanking period={period} />
          </div>
          <div className="metrics-row">
            <LeadMetrics period={period} />
            <Funnel period={period} />
          </div>
          <ChartSection period={period} />
          <LeadList period={period} />
          <FirstContactPanel period={period} />
          <DestinationsPanel />
          <ChannelsPanel period={period} />
          <Rankings period={period} />
          <UtmDetailPanels period={period} />
          <AudiencePanels period={period} />
          <div className="conversion-pair">
            <ConversionTable period={period} />
            <ChannelConversionTable period={period} />
          </div>
        </AddFilter.Provider>
        <LgpdPanel />
        <SystemPanel />
        <WeeklyReportPanel />
      </main>
      <VersionFooter />
    </div>
  );
}
