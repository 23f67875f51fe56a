// The little behaviour the pages need beside htmx. It lives here, not in inline
// handlers, so the Content-Security-Policy allows no inline script and no eval.

// A shareable link is selected whole on a click, ready to copy.
document.addEventListener("click", (event) => {
  const field = event.target.closest("input[data-select-on-click]");
  if (field) field.select();
});

// A form sent by htmx (table talk) is emptied once the server took it.
document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt;
  if (form instanceof HTMLFormElement && form.hasAttribute("data-reset-on-success") && event.detail.successful) {
    form.reset();
  }
});

// A live game's clock counts down every second on the page ("4:05", "0:09");
// data-deadline is the deadline in seconds since the epoch. The server's words
// stay until the last hour, when seconds start to matter.
const HOUR = 3600;

function clockText(seconds) {
  const minutes = Math.floor(seconds / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return `${minutes}:${rest}`;
}

function tickDeadlines() {
  for (const clock of document.querySelectorAll("[data-deadline]")) {
    const left = Math.max(0, Math.round(Number(clock.dataset.deadline) - Date.now() / 1000));
    if (left < HOUR) clock.textContent = clockText(left);
  }
}

// The title follows the live part of the page: it says when it is the reader's move.
function followTitle() {
  const live = document.getElementById("live");
  if (live && live.dataset.title) document.title = live.dataset.title;
}

setInterval(tickDeadlines, 1000);
document.addEventListener("DOMContentLoaded", tickDeadlines);
document.addEventListener("htmx:afterSwap", () => {
  tickDeadlines();
  followTitle();
});
