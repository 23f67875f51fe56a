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
