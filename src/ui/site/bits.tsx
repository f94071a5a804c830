import { useTranslation } from "react-i18next";
import { SITE } from "../../site.ts";
import { track } from "./track.ts";
import { Icon } from "./Icon.tsx";

/** Five stars with the rating spelled out for screen readers. */
export function Stars({ value }: { value: number }) {
  const { t } = useTranslation("common");
  return (
    <p className="stars" role="img" aria-label={t("rating", { value })}>
      {Array.from({ length: 5 }, (_, i) => <Icon key={i} name="star" size={18} />)}
    </p>
  );
}

/** The link to the YouTube channel, tracked as a channel click. */
export function ChannelLink() {
  const { t } = useTranslation("common");
  return (
    <p className="center channel-link">
      <a
        href={SITE.youtubeChannelUrl}
        target="_blank"
        rel="noopener noreferrer"
        {...track("channel_click", "youtube", "channel")}
      >
        {t("video.channel")} <span className="visually-hidden">{t("nav.newTab")}</span>
      </a>
    </p>
  );
}
