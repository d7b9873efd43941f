// The game page: step through the replay without loading another page.
//
// The page comes drawn at one step and works without this script (each step is a link).
// The script loads every step once (steps.json, the same views the server draws from)
// when the visitor first comes near the replay,
// then the step links, the deal links and the arrow keys draw a step in place and put
// its address in the location bar. It draws exactly what the server's templates draw
// (_steps.html, _table.html and the said section of game.html); names are set as text.
"use strict";
(() => {
  const root = document.getElementById("replay");
  if (!root) return;
  root.classList.add("js");
  const here = root.dataset.here;
  const count = Number(root.dataset.count);
  const sprite = root.dataset.cards;
  const teams = ["Blue", "Orange"];
  let current = Number(new URLSearchParams(location.search).get("step")) || count;
  let data = null;
  let loading = null;

  const load = () => {
    loading ??= fetch(root.dataset.steps, { credentials: "same-origin" })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`steps: ${r.status}`))))
      .then((d) => { data = d; });
    return loading;
  };

  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
    node.append(...children.filter((c) => c !== null && c !== ""));
    return node;
  };
  const who = (seat) => {
    const p = data.players[seat];
    const parts = [el("bdi", {}, p.name)];
    if (p.computer) parts.push(" ", el("span", { class: "cpu" }, "(computer)"));
    return parts;
  };
  const card = (label, extra = "", alt = "") => el("img", {
    src: `${sprite}#${label}`, alt: alt || data.words[label], width: "40", height: "56",
    class: extra ? `card ${extra}` : "card",
  });
  const link = (n, text, attrs = {}) => el("a", { href: `${here}?step=${n}`, "data-step": String(n), ...attrs }, text);

  const steps = (n) => {
    const nav = el("nav", { class: "steps", "aria-label": "Replay steps" });
    if (n > 1) {
      nav.append(link(1, "« First", { class: "button" }),
        link(n - 1, "◀ Back", { rel: "prev", class: "button prev" }));
    } else {
      nav.append(el("span", { class: "button off" }, "« First"), el("span", { class: "button off prev" }, "◀ Back"));
    }
    nav.append(el("span", { class: "where", "aria-live": "polite" }, `Step ${n} of ${count}`));
    if (n < count) {
      nav.append(link(n + 1, "Next ▶", { rel: "next", class: "button next" }),
        link(count, "Last »", { class: "button" }));
    } else {
      nav.append(el("span", { class: "button off next" }, "Next ▶"), el("span", { class: "button off" }, "Last »"));
    }
    return nav;
  };

  const seat = (section, step) => {
    const number = Number(section.dataset.seat);
    const heading = el("h3", { id: `seat-${number}` }, ...who(number));
    if (number === step.dealer) heading.append(" ", el("span", { class: "tag" }, "dealer"));
    const body = step.out[number]
      ? el("p", { class: "out" }, "Sits out this deal.")
      : el("p", { class: "hand" }, ...step.hands[number].map((label) => card(label)));
    section.replaceChildren(heading, body);
  };

  const score = (step) => {
    const p = el("p", { class: "score" },
      el("span", { class: "team-0" }, `${teams[0]} ${step.score[0]}`), el("br"),
      el("span", { class: "team-1" }, `${teams[1]} ${step.score[1]}`));
    if (step.trump) p.append(el("br"), `Trump ${step.trump}`);
    if (step.trick) p.append(el("br"), `Tricks ${step.tricksWon[0]}–${step.tricksWon[1]}`);
    return p;
  };

  const trick = (step) => {
    const div = el("div", { class: "trick" });
    if (step.upcard) div.append(el("p", { class: "upcard" }, card(step.upcard), el("span", {}, "turned up")));
    for (const [s, label] of step.played) {
      const place = root.querySelector(`.seat[data-seat="${s}"]`).dataset.position;
      const won = s === step.takenBy ? " won" : "";
      div.append(card(label, `p-${place}${won}`, `${data.words[label]}, played by ${data.players[s].name}`));
    }
    return div;
  };

  const said = (step) => {
    const parts = [el("h3", { id: "said" }, step.trick === 0 ? "Bidding" : `Trick ${step.trick}`)];
    if (step.said.length) {
      parts.push(el("ol", {}, ...step.said.map((line) =>
        el("li", {}, ...line.flatMap((part) => (typeof part === "number" ? who(part) : [part]))))));
    } else {
      parts.push(el("p", {}, "Nothing was said."));
    }
    if (step.takenBy !== null) parts.push(el("p", {}, ...who(step.takenBy), " took the trick."));
    if (step.dealResult) parts.push(el("p", { class: "result" }, step.dealResult));
    if (step.gameResult) parts.push(el("p", { class: "result final" }, step.gameResult));
    return parts;
  };

  const draw = (n) => {
    const step = data.steps[n - 1];
    root.querySelector("nav.steps").replaceWith(steps(n));
    root.querySelector(".heading").textContent = step.heading;
    for (const a of root.querySelectorAll("a.deal")) {
      if (Number(a.textContent) === step.deal) a.setAttribute("aria-current", "step");
      else a.removeAttribute("aria-current");
    }
    for (const section of root.querySelectorAll(".seat")) seat(section, step);
    root.querySelector(".felt .score").replaceWith(score(step));
    root.querySelector(".trick").replaceWith(trick(step));
    root.querySelector("section.said").replaceChildren(...said(step));
    current = n;
  };

  const go = (n) => {
    if (!(n >= 1 && n <= count) || n === current) return;
    const address = `${here}?step=${n}`;
    if (!data) {
      load().then(() => go(n), () => { location.href = address; });
      return;
    }
    draw(n);
    history.replaceState({ step: n }, "", address);
  };

  root.addEventListener("click", (event) => {
    const a = event.target instanceof Element && event.target.closest("a[data-step]");
    if (!a || event.button !== 0 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    go(Number(a.dataset.step));
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.defaultPrevented) return;
    const target = event.target;
    if (target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    const move = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (!move) return;
    event.preventDefault();
    go(current + move);
  });
  // Fetched once the visitor comes near the steps, so a look that never steps costs nothing.
  const warm = () => { load().catch(() => {}); };
  root.addEventListener("pointerover", warm, { once: true });
  root.addEventListener("focusin", warm, { once: true });
})();
