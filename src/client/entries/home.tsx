import { boot } from "../boot.tsx";
import Page from "../../ui/pages/HomePage.tsx";

boot(Page);
