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

// The tab's title starts with the count of games waiting for the reader, "(2) Coup
// by email": the server writes it, a poll's answer brings it again (the
// gamesWaiting event its HX-Trigger header raises), and the title of the live
// part of the page follows the game: it says when it is the reader's move.
const COUNTED = /^\((\d+)\) /;

function showTitle(title, waiting) {
  document.title = waiting > 0 ? `(${waiting}) ${title}` : title;
}

function waitingCount() {
  const counted = document.title.match(COUNTED);
  return counted ? Number(counted[1]) : 0;
}

document.addEventListener("gamesWaiting", (event) => {
  showTitle(document.title.replace(COUNTED, ""), Number(event.detail.value));
});

function followTitle() {
  const live = document.getElementById("live");
  if (live && live.dataset.title) showTitle(live.dataset.title, waitingCount());
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

// The waiting room's share link is copied by its button. Without a clipboard (a page
// not served over HTTPS, a permission refused) the link is selected instead, for
// the reader to copy, and the button's note says so: nothing fails loudly.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-copy]");
  if (!button) return;
  const field = document.getElementById(button.dataset.copy);
  const note = document.getElementById(button.dataset.copyNote);
  try {
    await navigator.clipboard.writeText(field.value);
    note.textContent = button.dataset.copied;
  } catch {
    field.select();
    note.textContent = button.dataset.copyByHand;
  }
});
for (const button of document.querySelectorAll("button[data-copy]")) button.hidden = false;

// A replay steps back and forward with the arrow keys, as its ‹ and › buttons do
// (data-key), unless the reader is typing or choosing in a field.
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  if (event.target.closest("input, select, textarea, [contenteditable]")) return;
  const link = document.querySelector(`#replay [data-key="${event.key}"]`);
  if (!link) return;
  event.preventDefault();
  link.click();
});

// A replay's step keeps the table in view: its history scrolls in a box of its
// own, to the step shown, and the page scrolls back to the table only if a step
// was chosen with the table off the screen.
function keepReplayInView() {
  const replay = document.getElementById("replay");
  if (!replay) return;
  const current = replay.querySelector(".replay__lines [aria-current=step]");
  const lines = current && current.closest(".replay__lines");
  if (lines) lines.scrollTop = current.offsetTop - lines.clientHeight / 2;
  const table = replay.querySelector("section.table");
  const box = table && table.getBoundingClientRect();
  if (box && (box.bottom < 0 || box.top > window.innerHeight)) table.scrollIntoView({ block: "start" });
}

document.addEventListener("DOMContentLoaded", keepReplayInView);
document.addEventListener("htmx:afterSwap", keepReplayInView);

// A player still on UTC is offered the time zone their browser gives (the server
// includes the form only then); a zone the browser does not know, or UTC itself,
// is not worth a question.
function offerTimeZone() {
  const offer = document.querySelector("form[data-zone-offer]");
  if (!offer) return;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone || zone === "UTC" || zone === "Etc/UTC") return;
  offer.elements.time_zone.value = zone;
  offer.querySelector("[data-zone-name]").textContent = zone.replaceAll("_", " ");
  offer.hidden = false;
}

document.addEventListener("DOMContentLoaded", offerTimeZone);

// The sign-up form sends the zone the browser gives, so a new player's dates are
// right from the first email; the server keeps it only if it knows the zone.
function fillBrowserZone() {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone) return;
  for (const field of document.querySelectorAll("input[data-browser-zone]")) field.value = zone;
}

document.addEventListener("DOMContentLoaded", fillBrowserZone);

// A passkey's request that failed (cancelled, timed out, no passkey for the site on
// this device) is reported by allauth's script as an event, never on the page: the
// page's note says so, at the top of the page, where the reader looks.
document.addEventListener("allauth.error", (event) => {
  const note = document.getElementById("passkey-failed");
  if (!note) return;
  event.preventDefault();
  document.querySelector("main").prepend(note);
  note.hidden = false;
  note.scrollIntoView({ block: "nearest" });
});
