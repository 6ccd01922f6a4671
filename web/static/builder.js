// The builder's keyboard: on a focused row, + adds one copy and - removes one (the row's own buttons, pressed).
"use strict";
document.addEventListener("keydown", (event) => {
  const row = event.target instanceof Element ? event.target.closest(".builder .row") : null;
  if (!row || event.target !== row || event.ctrlKey || event.metaKey || event.altKey) return;
  const form = row.querySelector(event.key === "+" ? "form.plus" : event.key === "-" ? "form.minus" : "none");
  if (!form) return;
  event.preventDefault();
  const card = row.dataset.card;
  document.addEventListener("htmx:afterSwap", () => {  // focus stays on the same card's row after the swap
    const again = document.querySelector(`.builder .row[data-card="${CSS.escape(card)}"]`);
    if (again) again.focus();
  }, {once: true});
  form.requestSubmit();
});
