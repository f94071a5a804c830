import "../../ui/admin/admin.css";
import "../../ui/admin/lgpd.css";
import "../../ui/admin/deliveries.css";
import "../../ui/admin/system.css";
import { hydrateRoot } from "react-dom/client";
import AdminApp from "../../ui/admin/AdminApp.tsx";
import { setAnalyticsTimeZone } from "../../ui/admin/format.ts";
import { pageConfig } from "../../browser_logic/page_config.ts";

setAnalyticsTimeZone(pageConfig().analyticsTimeZone);

const root = document.getElementById("root");
if (root) {
  hydrateRoot(root, <AdminApp />);
  document.documentElement.dataset.hydrated = "true";
}
