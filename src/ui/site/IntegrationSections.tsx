import { useTranslation } from "react-i18next";
import type { Lang } from "../../shared/languages.ts";
import { homeAnchor } from "../../shared/routes.ts";
import { SITE } from "../../site.ts";
import { anchorLink } from "./track.ts";
import { Icon } from "./Icon.tsx";
import { Section } from "./SectionHeader.tsx";
import { InfoTip } from "./Tooltip.tsx";
import { VideoCard, VideoFacade } from "./VideoFacade.tsx";
import { ChannelLink } from "./bits.tsx";

export type IntegrationNs = "pipefy" | "trello";
type TitleText = { title: string; text: string };

/** Scrolls to an anchor of this page (or follows the link to another page), tracking the click. */
export function anchorCta(label: string) {
  return anchorLink("cta_click", "integration", label);
}

/**
 * The sections both integration pages share, in the order of docs/PRODUCT.md, _Page sections_ (hero to the
 * complete flow).
 */
export function IntegrationSections({ ns, lang }: { ns: IntegrationNs; lang: Lang }) {
  const { t } = useTranslation(ns);
  const list = <T,>(key: string) => t(key, { returnObjects: true }) as T[];
  const demo = ns === "pipefy" ? SITE.videos.pipefyDemo : SITE.videos.trelloDemo;
  const tutorials = ns === "pipefy" ? SITE.videos.pipefyTutorials : SITE.videos.trelloTutorials;
  // Pipefy's main call to action goes to the home pricing; the Trello page has its own pricing section.
  const pricingHref = ns === "pipefy" ? homeAnchor(lang, "precos") : "#precos";
  return (
    <>
      <section className="hero integration-hero" aria-labelledby="hero-title">
        <div className="container center">
          <p className="pill">
            <Icon name="bolt" size={16} /> {t("hero.badge")}
          </p>
          <h1 id="hero-title">{t("hero.title")}</h1>
          <p className="lead hero-lead">{t("hero.subtitle")}</p>
          <div className="actions center" id="hero-cta">
            <a
              className="btn btn-primary btn-lg"
              href={pricingHref}
              {...anchorCta(`${ns}_hero_pricing`)}
            >
              {t("hero.primary")} <Icon name="arrow" size={18} />
            </a>
            <a className="btn btn-ghost btn-lg" href="#video-demo" {...anchorCta(`${ns}_hero_demo`)}>
              <Icon name="play" size={18} /> {t("hero.secondary")}
            </a>
          </div>
          <dl className="metric-tiles">
            {list<{ value: string; label: string; source: string }>("hero.metrics").map((m) => (
              <div key={m.label}>
                <dt>
                  {m.label} <InfoTip label={t("hero.sourceLabel")} text={m.source} />
                </dt>
                <dd>{m.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <Section id="problemas" titleId="problems-title" t={t} keys="problems" className="soft">
        <ul className="pairs">
          {list<{ problem: string; solution: string }>("problems.items").map((item) => (
            <li key={item.problem} className="pair">
              <div className="pair-problem">
                <p className="pair-label">{t("problems.problemLabel")}</p>
                <p>{item.problem}</p>
              </div>
              <div className="pair-solution">
                <p className="pair-label">{t("problems.solutionLabel")}</p>
                <p>{item.solution}</p>
              </div>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="video-demo" titleId="demo-title" t={t} keys="demo" width="narrow">
        <VideoFacade
          id={demo.id}
          start={demo.start}
          thumbnail={demo.thumbnail}
          title={t("demo.videoTitle")}
        />
        <ul className="highlights">
          {list<TitleText>("demo.highlights").map((h) => (
            <li key={h.title}>
              <Icon name="check" size={20} />
              <div>
                <h3>{h.title}</h3>
                <p>{h.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="tutoriais" titleId="tutorials-title" t={t} keys="tutorials" className="soft">
        <div className="card-grid three">
          {tutorials.map((video, i) => (
            <VideoCard key={video.id} video={video} index={i} title={list<string>("tutorials.items")[i]} />
          ))}
        </div>
        <ChannelLink />
      </Section>

      <Section id="beneficios" titleId="benefits-title" t={t} keys="benefits" subtitle={false}>
        <div className="card-grid three">
          {list<TitleText>("benefits.items").map((b) => (
            <article className="card" key={b.title}>
              <span className="icon-badge">
                <Icon name="check" />
              </span>
              <h3>{b.title}</h3>
              <p>{b.text}</p>
            </article>
          ))}
        </div>
      </Section>

      <Section id="recursos" titleId="features-title" t={t} keys="features" className="soft">
        <ul className="check-list two-columns">
          {list<string>("features.items").map((f) => (
            <li key={f}>
              <Icon name="check" size={18} /> {f}
            </li>
          ))}
        </ul>
      </Section>

      <Section id="como-funciona" titleId="how-title" t={t} keys="how" subtitle={false}>
        <ol className="step-cards">
          {list<TitleText>("how.steps").map((s, i) => (
            <li key={s.title} className="card">
              <span className="step-number" aria-hidden="true">{i + 1}</span>
              <h3>{s.title}</h3>
              <p>{s.text}</p>
            </li>
          ))}
        </ol>
        <div className="flow-box">
          <h3>{t("how.flowTitle")}</h3>
          <ol className="flow">
            {list<string>("how.flow").map((f) => <li key={f}>{f}</li>)}
          </ol>
        </div>
        <ul className="extras">
          {list<TitleText>("how.extras").map((x) => (
            <li key={x.title}>
              <h3>{x.title}</h3>
              <p>{x.text}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="fluxo-completo" titleId="flow-title" t={t} keys="completeFlow" className="soft">
        <ol className="timeline">
          {list<TitleText>("completeFlow.steps").map((s, i) => (
            <li key={s.title}>
              <span className="step-number" aria-hidden="true">{i + 1}</span>
              <div>
                <h3>{s.title}</h3>
                <p>{s.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </Section>
    </>
  );
}
