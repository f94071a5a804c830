import { boot } from "../boot.tsx";
import Page from "../../ui/pages/CustomersPage.tsx";

boot(Page);
