// The game page: the arrow keys follow the Back and Next links (each step is its own page).
"use strict";
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.isContentEditable) return;
  const id = { ArrowLeft: "prev", ArrowRight: "next" }[event.key];
  const link = id && document.getElementById(id);
  if (link) {
    event.preventDefault();
    link.click();
  }
});
