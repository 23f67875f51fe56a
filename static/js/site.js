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

// A keyboard player keeps their place when the live part of the game page is replaced
// (by their own answer, or by the poll bringing someone else's move): focus goes back
// to the same control in the new content, or, when that control is gone (the decision
// was answered), to the banner that says what happens next; never to the top of the page.
let focusedInLive = null;

// A decision's button is the same only for the same decision (its version): focus
// never lands on a look-alike button of the next decision, where a second press of
// Enter would answer what the player has not read yet.
function controlKey(element) {
  const form = element.closest("form");
  const command = form?.querySelector("input[name=command]");
  if (command) return `command:${form.querySelector("input[name=version]")?.value}:${command.value}`;
  if (element.name && element.value) return `${element.name}:${element.value}`;
  return element.getAttribute("href") ? `href:${element.getAttribute("href")}` : null;
}

function findControl(live, key) {
  for (const control of live.querySelectorAll("button, a[href], input, select, textarea")) {
    if (controlKey(control) === key) return control;
  }
  return null;
}

document.addEventListener("htmx:beforeSwap", (event) => {
  const focused = document.activeElement;
  const live = event.detail.target;
  const replaced = event.detail.shouldSwap && live.id === "live" && live.contains(focused);
  focusedInLive = replaced ? { key: controlKey(focused) } : null;
});

function keepFocus() {
  const live = document.getElementById("live");
  if (!focusedInLive || !live) return;
  const control = focusedInLive.key && findControl(live, focusedInLive.key);
  const target = control || live.querySelector(".banner") || live;
  if (!control) target.tabIndex = -1; // focusable from here, not a stop for the Tab key
  // The page stays where the reader left it: an update never scrolls it.
  target.focus({ preventScroll: true });
  focusedInLive = null;
}

setInterval(tickDeadlines, 1000);
document.addEventListener("DOMContentLoaded", tickDeadlines);
document.addEventListener("htmx:afterSwap", () => {
  tickDeadlines();
  followTitle();
  keepFocus();
});
