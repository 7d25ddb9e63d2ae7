// The play button of a video facade (Embed.tsx), one script for every page, whether
// React runs on it or not (the home page is served without React): a plain click or
// Enter on the button puts the host's player into the facade's box and gives it the
// focus. The player is added beside React's nodes, which stay (hidden), so React still
// finds the elements it rendered; a facade for another video is a new element (keyed).
// Without this script the button is what it is in the HTML: a link to the video's page.
const ALLOW = "accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; fullscreen";

document.addEventListener("click", (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = event.target instanceof Element ? event.target.closest("a[data-player]") : null;
  const figure = link?.closest("figure");
  if (!link || !figure || figure.hasAttribute("data-playing")) return;
  event.preventDefault();
  const frame = document.createElement("iframe");
  frame.src = link.dataset.player;
  frame.title = link.dataset.playerTitle;
  frame.allow = ALLOW;
  frame.referrerPolicy = "strict-origin-when-cross-origin";
  figure.setAttribute("data-playing", "");
  link.parentElement.append(frame);
  frame.focus();
});
