import { boot } from "../boot.tsx";
import Page from "../../ui/pages/TrelloPage.tsx";

boot(Page);
