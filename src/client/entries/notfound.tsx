import { boot } from "../boot.tsx";
import Page from "../../ui/pages/NotFoundPage.tsx";

// A wrong address is not a page view: no visit is recorded.
boot(Page, { visit: false });
