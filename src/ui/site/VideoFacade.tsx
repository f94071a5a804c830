import { useTranslation } from "react-i18next";
import { track } from "./track.ts";
import { Island } from "../Island.tsx";
import type { Video, VideoThumbnail } from "../../site.ts";
import { Icon } from "./Icon.tsx";

/**
 * A light stand-in for a YouTube player: a styled poster and a play button. The privacy-enhanced player
 * (youtube-nocookie) loads only when the visitor asks for it (src/bundles/islands/video.ts swaps it in), so
 * the page never waits on YouTube and still looks complete when YouTube is unreachable.
 */
export function VideoFacade(
  { id, start, title, thumbnail }: { id: string; start: number; title: string; thumbnail?: VideoThumbnail },
) {
  const { t } = useTranslation("common");
  return (
    <Island name="video" when="interaction">
      <div className="video-frame">
        <button
          type="button"
          className="video-poster"
          data-video-id={id}
          data-start={start}
          data-title={title}
          {...track("video_click", "video", title)}
        >
          {thumbnail && <Thumbnail image={thumbnail} />}
          <span className="video-poster-title">{title}</span>
          <span className="video-play">
            <Icon name="play" size={34} />
          </span>
          <span className="visually-hidden">{t("video.play", { title })}</span>
        </button>
        {
          /* Without JavaScript the poster cannot start the player: this link over it opens the video on
            YouTube, at the same second. */
        }
        <noscript>
          <a
            className="video-noscript"
            href={`https://www.youtube.com/watch?v=${encodeURIComponent(id)}&t=${start}s`}
            target="_blank"
            rel="noopener noreferrer"
          >
            <span className="visually-hidden">{`${t("video.play", { title })} ${t("nav.newTab")}`}</span>
          </a>
        </noscript>
      </div>
    </Island>
  );
}

/** A tutorial card: a styled thumbnail that links to the video's page on YouTube. */
export function VideoCard({ video, title, index }: { video: Video; title: string; index: number }) {
  const { id, thumbnail } = video;
  const { t } = useTranslation("common");
  return (
    <a
      className="video-card"
      href={`https://www.youtube.com/watch?v=${encodeURIComponent(id)}`}
      target="_blank"
      rel="noopener noreferrer"
      {...track("video_click", "tutorial", title)}
    >
      <span className={`video-thumb thumb-${index % 3}`} aria-hidden="true">
        {thumbnail && <Thumbnail image={thumbnail} />}
        <span className="video-thumb-number">{String(index + 1).padStart(2, "0")}</span>
        <span className="video-play small">
          <Icon name="play" size={22} />
        </span>
      </span>
      <span className="video-card-body">
        <span className="video-card-title">{title}</span>
        <span className="video-card-cta">
          {t("video.watchOnYoutube")} <span className="visually-hidden">{t("nav.newTab")}</span>
        </span>
      </span>
    </a>
  );
}

/**
 * The self-hosted poster over the gradient tile: decorative (the title is text beside it), loaded lazily;
 * if it fails to load, the empty alt leaves nothing drawn and the tile shows.
 */
function Thumbnail({ image }: { image: VideoThumbnail }) {
  return (
    <img
      className="video-thumb-img"
      src={image.src}
      width={image.width}
      height={image.height}
      alt=""
      loading="lazy"
      decoding="async"
    />
  );
}
