import { boot } from "../boot.tsx";
import Page from "../../ui/pages/LegalPage.tsx";

boot(Page);
