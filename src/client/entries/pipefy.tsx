import { boot } from "../boot.tsx";
import Page from "../../ui/pages/PipefyPage.tsx";

boot(Page);
