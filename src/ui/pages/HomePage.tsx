import { useTranslation } from "react-i18next";
import type { PageProps } from "./registry.ts";
import { Layout } from "../components/Layout.tsx";
import { CtaBand } from "../site/CtaBand.tsx";
import { homeAnchor } from "../../shared/routes.ts";
import { SITE, whatsappLink } from "../../site.ts";
import { anchorLink, track } from "../site/track.ts";
import { Icon, type IconName } from "../site/Icon.tsx";
import { Section, SectionHeader } from "../site/SectionHeader.tsx";
import { VideoCard, VideoFacade } from "../site/VideoFacade.tsx";
import { PricingSection } from "../site/PricingSection.tsx";
import { Faq } from "../site/Faq.tsx";
import { ChannelLink, Stars } from "../site/bits.tsx";

const FEATURES: { key: string; icon: IconName }[] = [
  { key: "whatsappBusiness", icon: "chat" },
  { key: "cloudApi", icon: "bolt" },
  { key: "groups", icon: "users" },
  { key: "websiteChat", icon: "globe" },
  { key: "email", icon: "mail" },
  { key: "instagram", icon: "camera" },
];

type Stat = { value: string; label: string };

/** The home page: every section of docs/PRODUCT.md, _Page sections_, in its order. */
export default function HomePage({ lang, page }: PageProps) {
  const { t } = useTranslation("home");
  const list = <T,>(key: string) => t(key, { returnObjects: true }) as T[];
  const cta = (label: string) => anchorLink("cta_click", "home", label);
  return (
    <Layout lang={lang} page={page}>
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero-grid">
          <div className="hero-copy">
            <p className="pill">
              <Icon name="star" size={16} /> {t("hero.badge")}
            </p>
            <h1 id="hero-title">{t("hero.title")}</h1>
            <p className="lead">{t("hero.subtitle")}</p>
            <div className="actions" id="hero-cta">
              <a
                className="btn btn-primary btn-lg"
                href={homeAnchor(lang, "precos")}
                {...cta("hero_primary")}
              >
                {t("hero.primary")} <Icon name="arrow" size={18} />
              </a>
              <a
                className="btn btn-ghost btn-lg"
                href={homeAnchor(lang, "video-demo")}
                {...cta("hero_demo")}
              >
                <Icon name="play" size={18} /> {t("hero.secondary")}
              </a>
            </div>
            <p className="hero-note">{t("hero.trial")}</p>
            <dl className="hero-stats">
              {list<Stat>("hero.stats").map((s) => (
                <div key={s.label}>
                  <dt>{s.label}</dt>
                  <dd>{s.value}</dd>
                </div>
              ))}
            </dl>
          </div>
          <div className="phone-mock" aria-hidden="true">
            <div className="phone-head">
              <span className="phone-avatar">Z</span>
              <span>
                <strong>{t("hero.chat.title")}</strong>
                <small>{t("hero.chat.status")}</small>
              </span>
            </div>
            <div className="phone-body">
              <p className="bubble in">{t("hero.chat.customer")}</p>
              <p className="bubble out">{t("hero.chat.bot")}</p>
              <p className="bubble in">{t("hero.chat.customer2")}</p>
              <p className="bubble out">{t("hero.chat.bot2")}</p>
            </div>
          </div>
        </div>
      </section>

      <Section id="funcionalidades" titleId="features-title" t={t} keys="features">
        <div className="card-grid three">
          {FEATURES.map(({ key, icon }) => (
            <article className="card feature-card" key={key} data-feature={key}>
              <span className="icon-badge">
                <Icon name={icon} />
              </span>
              <h3>{t(`features.items.${key}.title`)}</h3>
              <p>{t(`features.items.${key}.description`)}</p>
              <ul className="check-list">
                {list<string>(`features.items.${key}.benefits`).map((b) => (
                  <li key={b}>
                    <Icon name="check" size={18} /> {b}
                  </li>
                ))}
              </ul>
            </article>
          ))}
        </div>
      </Section>

      <section id="automacao" className="section soft" aria-labelledby="automation-title">
        <div className="container split">
          <div>
            <SectionHeader
              id="automation-title"
              eyebrow={t("automation.eyebrow")}
              title={t("automation.title")}
              subtitle={t("automation.subtitle")}
              center={false}
            />
            <dl className="big-stats">
              {list<Stat>("automation.stats").map((s) => (
                <div key={s.label}>
                  <dt>{s.label}</dt>
                  <dd>{s.value}</dd>
                </div>
              ))}
            </dl>
          </div>
          <ol className="steps-list">
            {list<{ title: string; text: string }>("automation.points").map((p, i) => (
              <li key={p.title}>
                <span className="step-number" aria-hidden="true">{i + 1}</span>
                <div>
                  <h3>{p.title}</h3>
                  <p>{p.text}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <Section id="video-demo" titleId="demo-title" t={t} keys="demo" width="narrow">
        <VideoFacade
          id={SITE.videos.homeDemo.id}
          start={SITE.videos.homeDemo.start}
          thumbnail={SITE.videos.homeDemo.thumbnail}
          title={t("demo.videoTitle")}
        />
      </Section>

      <PricingSection lang={lang} />

      <Section id="videos" titleId="videos-title" t={t} keys="videos">
        <div className="card-grid three">
          {SITE.videos.homeList.map((video, i) => (
            <VideoCard key={video.id} video={video} index={i} title={list<string>("videos.items")[i]} />
          ))}
        </div>
        <ChannelLink />
      </Section>

      <Section id="depoimentos" titleId="testimonials-title" t={t} keys="testimonials" className="soft">
        <div className="card-grid three">
          {SITE.testimonials.map((item) => (
            <figure className="card testimonial" key={item.key}>
              <Stars value={item.rating} />
              <blockquote>
                <p>{t(`testimonials.items.${item.key}.quote`)}</p>
              </blockquote>
              <figcaption>
                <span className="avatar" aria-hidden="true">
                  {item.name.split(" ").map((w) => w[0]).join("").slice(0, 2)}
                </span>
                <span>
                  <strong>{item.name}</strong>
                  <small>{t(`testimonials.items.${item.key}.role`)}, {item.company}</small>
                </span>
              </figcaption>
            </figure>
          ))}
        </div>
      </Section>

      <Section id="faq" titleId="faq-title" t={t} keys="faq" subtitle={false} width="narrow">
        <Faq items={list<{ q: string; a: string }>("faq.items")} />
      </Section>

      <CtaBand
        t={t}
        lang={lang}
        onPricing={cta("final_plans")}
        secondary={{
          href: whatsappLink(SITE.whatsappMessages.specialist[lang]),
          click: track("channel_click", "whatsapp", "home_final"),
          icon: "chat",
          external: true,
        }}
      />
    </Layout>
  );
}
