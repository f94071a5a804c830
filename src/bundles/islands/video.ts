// The video facade island: a click on the poster swaps in the privacy-enhanced YouTube player. The click
// itself was tracked by the bootstrap (data-track); a click that loaded this code is acted on at once.

export default function attach(root: HTMLElement, _props: unknown, click?: Event): void {
  const play = (poster: HTMLElement) => {
    const frame = poster.closest(".video-frame");
    if (!frame) return;
    const { videoId = "", start = "0", title = "" } = poster.dataset;
    const iframe = document.createElement("iframe");
    iframe.src = `https://www.youtube-nocookie.com/embed/${encodeURIComponent(videoId)}?start=${
      Number(start) || 0
    }&autoplay=1&rel=0&modestbranding=1`;
    iframe.title = title;
    iframe.allow = "accelerometer; autoplay; encrypted-media; gyroscope; picture-in-picture";
    iframe.allowFullscreen = true;
    iframe.referrerPolicy = "strict-origin-when-cross-origin";
    frame.replaceChildren(iframe);
  };
  root.addEventListener("click", (event) => {
    const poster = (event.target as Element).closest<HTMLElement>(".video-poster");
    if (poster) play(poster);
  });
  const first = click?.target instanceof Element ? click.target.closest<HTMLElement>(".video-poster") : null;
  if (first && root.contains(first)) play(first);
}
