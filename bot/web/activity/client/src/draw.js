// Draws the table from the server's JSON: the felt, the seats around it with names and
// avatars, the trick in the middle, trump and the score, and the person's own hand fanned
// at the bottom, the cards they may play raised. Names are set as text, never as markup.

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function suited(text) {
  // The suit symbols in a line, each in a span its colour comes from.
  const span = el("span");
  for (const part of text.split(/([♣♦♥♠])/u)) {
    if (!part) continue;
    const suit = Object.keys(SUITS).find((k) => SUITS[k] === part);
    span.append(suit ? el("span", { class: `suit suit-${suit}`, text: part }) : part);
  }
  return span;
}

function sprite(state) {
  return state.fourColour ? document.body.dataset.sprite4 : document.body.dataset.sprite;
}

function cardImage(state, label, words) {
  return el("img", { class: "face", src: `${sprite(state)}#${label}`, alt: words, width: 50, height: 70 });
}

export function drawMessage(root, text) {
  root.replaceChildren(el("div", { class: "message" }, el("p", { text })));
}

function position(seat, bottom, players) {
  return (seat - bottom + players) % players;
}

function place(node, pos, players, radius) {
  const angle = Math.PI / 2 + (2 * Math.PI * pos) / players;
  node.style.left = `${50 + radius[0] * Math.cos(angle)}%`;
  node.style.top = `${50 + radius[1] * Math.sin(angle)}%`;
}

function avatar(state, seat) {
  const person = seat.user ? state.people[seat.user] : null;
  const initials = (seat.name || "?").trim().slice(0, 1).toUpperCase();
  if (person && person.avatar) {
    // Inside Discord through its proxy: the URL mapping /cdn -> cdn.discordapp.com.
    const cdn = location.hostname.endsWith(".discordsays.com") ? "/.proxy/cdn" : "https://cdn.discordapp.com";
    const src = `${cdn}/avatars/${seat.user}/${person.avatar}.png?size=64`;
    return el("img", { class: "avatar", src, alt: "", width: 40, height: 40 });
  }
  return el("span", { class: `avatar initials team-${seat.team}`, "aria-hidden": "true", text: seat.computer ? "🤖" : initials });
}

function seatBox(state, table, seat, pos) {
  const tags = [];
  if (table.dealer === seat.seat) tags.push("dealer");
  if (table.maker === seat.seat) tags.push(table.alone && table.alone.includes(seat.seat) ? "alone" : "maker");
  if (seat.away) tags.push("computer playing");
  const turn = table.turn === seat.seat && !table.over;
  const cards = table.cards ? table.cards[seat.seat] : 0;
  const out = table.out && table.out[seat.seat];
  const box = el(
    "section",
    {
      class: `seat team-${seat.team}${turn ? " turn" : ""}${out ? " out" : ""}`,
      "aria-label": `${seat.name}, seat ${seat.seat + 1}${turn ? ", to act" : ""}`,
      "data-seat": seat.seat,
    },
    avatar(state, seat),
    el("span", { class: "name", text: seat.name }),
    tags.length ? el("span", { class: "tags", text: tags.join(" · ") }) : null,
    (pos !== 0 || !state.you) && cards ? el("span", { class: "backs", "aria-label": `${cards} cards`, text: "▮".repeat(cards) }) : null,
  );
  place(box, pos, table.players, [40, 38]);
  return box;
}

function trickArea(state, table, bottom) {
  const area = el("div", { class: "trick", "aria-label": "The trick" });
  let plays = table.trick || [];
  let done = false;
  if (!plays.length && table.last_trick && table.last_trick.deal === table.deal && table.phase === "play") {
    plays = table.last_trick.plays;
    done = true;
  }
  for (const play of plays) {
    const seat = table.seats[play.seat];
    const won = done && play.seat === table.last_trick.winner;
    const card = el("span", { class: `played${won ? " won" : ""}` }, cardImage(state, play.card, `${play.words}, played by ${seat.name}`));
    place(card, position(play.seat, bottom, table.players), table.players, [13, 15]);
    area.append(card);
  }
  if (table.upcard) {
    area.append(el("span", { class: "upcard" }, cardImage(state, table.upcard, `${table.upcard_words} turned up`), el("span", { text: "turned up" })));
  }
  return area;
}

function scoreBar(state, table) {
  const bar = el("header", { class: "bar" });
  const score = table.score || [0, 0];
  const team = (t) => table.seats.filter((s) => s.team === t).map((s) => s.name).join(" & ");
  bar.append(
    el("span", { class: "score" },
      el("span", { class: "team-0", text: `${team(0)} ${score[0]}` }), " · ",
      el("span", { class: "team-1", text: `${team(1)} ${score[1]}` }),
      table.target ? el("span", { class: "target", text: ` (to ${table.target})` }) : null),
  );
  if (table.trump_name) bar.append(el("span", { class: "trump" }, "Trump ", suited(table.trump_name)));
  if (table.tricks && table.phase === "play") bar.append(el("span", { class: "tricks", text: `Tricks ${table.tricks[0]}–${table.tricks[1]}` }));
  const watchers = state.watching ? ` · ${state.watching} watching` : "";
  bar.append(el("span", { class: "table-no", text: `Table ${table.number}${watchers}` }));
  return bar;
}

function focusNext(event) {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  if (!step) return;
  const cards = [...event.currentTarget.querySelectorAll("button")];
  const index = cards.indexOf(document.activeElement);
  if (index < 0) return;
  event.preventDefault();
  cards[(index + step + cards.length) % cards.length].focus();
}

function handArea(state, you, send) {
  const hand = el("div", { class: "hand", role: "group", "aria-label": "Your hand", onkeydown: focusNext });
  const count = you.hand.length;
  you.hand.forEach((card, i) => {
    const verb = you.verb || "play";
    // The name is read from what shows: the verb (for readers only), the card, its role.
    const button = el(
      "button",
      {
        class: `card${card.code ? " legal" : ""}`,
        type: "button",
        "aria-disabled": card.code ? "false" : "true",
        "data-card": card.card,
        onclick: () => card.code && send({ do: "act", code: card.code, stamp: you.stamp }),
      },
      card.code ? el("span", { class: "sr", text: `${verb[0].toUpperCase()}${verb.slice(1)} ` }) : null,
      cardImage(state, card.card, card.words),
      card.role ? el("span", { class: "role", text: card.role }) : null,
    );
    button.style.setProperty("--i", String(i - (count - 1) / 2));
    hand.append(button);
  });
  return hand;
}

function mine(state, you, send) {
  const part = el("section", { class: "mine", "aria-label": "Your seat" });
  if (you.prompt) part.append(el("p", { class: "prompt", id: "prompt" }, suited(you.prompt)));
  const buttons = el("div", { class: "bids" });
  for (const b of you.buttons) {
    buttons.append(el("button", { type: "button", class: `bid ${b.kind}`, "data-code": b.code, onclick: () => send({ do: "act", code: b.code, stamp: you.stamp }) }, suited(b.label)));
  }
  if (you.claim) buttons.append(el("button", { type: "button", class: "bid alone", onclick: () => send({ do: "claim", stamp: you.stamp }), text: "Claim the rest" }));
  if (buttons.childElementCount) part.append(buttons);
  part.append(handArea(state, you, send));
  return part;
}

function lobby(state, table, send) {
  const me = state.me && state.me.id;
  const seated = table.seats.some((s) => s.user === me);
  const part = el("section", { class: "lobby", "aria-label": "Seats" });
  part.append(el("h1", { text: `Table ${table.number}: waiting for players` }));
  const list = el("ol", { class: "lobby-seats" });
  for (const seat of table.seats) {
    list.append(el("li", {}, avatar(state, seat), el("span", { text: seat.user || seat.computer ? seat.name : `Seat ${seat.seat + 1}: open` })));
  }
  part.append(list);
  const actions = el("div", { class: "bids" });
  const open = table.seats.some((s) => !s.user && !s.computer);
  if (!seated && open) actions.append(el("button", { type: "button", class: "bid main", text: "Sit down", onclick: () => send({ do: "sit" }) }));
  if (table.host === me && open) actions.append(el("button", { type: "button", class: "bid pass", text: "Add a computer", onclick: () => send({ do: "computer" }) }));
  if (table.host === me) actions.append(el("button", { type: "button", class: "bid alone", text: "Start the game", onclick: () => send({ do: "start" }) }));
  if (seated && table.host !== me) part.append(el("p", { text: "Waiting for the host to start the game." }));
  part.append(actions);
  return part;
}

function ended(table) {
  if (table.status === "aborted") return "This table was closed.";
  if (table.winner === null || table.winner === undefined) return "The game is over.";
  const names = table.seats.filter((s) => s.team === table.winner).map((s) => s.name).join(" & ");
  return `${names} win ${table.score[table.winner]} to ${table.score[1 - table.winner]}.`;
}

export function draw(root, state, send) {
  const table = state.table;
  document.body.classList.toggle("four", state.fourColour);
  const parts = [];
  if (!state.online) parts.push(el("p", { class: "banner", role: "status", text: "Reconnecting…" }));
  if (state.notice) parts.push(el("p", { class: "notice", role: "alert" }, suited(state.notice)));
  if (!table) {
    parts.push(el("div", { class: "message" },
      el("h1", { text: "No table in this channel yet" }),
      el("button", { type: "button", class: "bid main", text: "Open a table", onclick: () => send({ do: "open" }) })));
    root.replaceChildren(...parts);
    return;
  }
  if (table.status === "lobby") {
    parts.push(lobby(state, table, send));
    root.replaceChildren(...parts);
    return;
  }
  const you = state.you;
  const bottom = you ? you.seat : 0;
  parts.push(scoreBar(state, table));
  const felt = el("div", { class: `felt seats-${table.players}`, role: "region", "aria-label": "The table" });
  for (const seat of table.seats) felt.append(seatBox(state, table, seat, position(seat.seat, bottom, table.players)));
  felt.append(trickArea(state, table, bottom));
  parts.push(felt);
  const line = table.status === "playing" ? table.line : ended(table);
  parts.push(el("p", { class: "line", role: "status", "aria-live": "polite", text: line }));
  if (table.status !== "playing") {
    // A finished game's players deal another with the same seats; anyone else opens one.
    const again = table.status === "finished" && you;
    const request = again ? { do: "again", table: table.table } : { do: "open" };
    parts.push(el("button", { type: "button", class: "bid main", text: again ? "Play again" : "Open a new table", onclick: () => send(request) }));
  } else if (you) {
    parts.push(mine(state, you, send));
  } else {
    parts.push(el("p", { class: "watching", text: "You are watching this table." }));
  }
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card || document.activeElement.dataset.code : null;
  root.replaceChildren(...parts);
  if (focused) {
    const again = root.querySelector(`[data-card="${focused}"], [data-code="${focused}"]`);
    if (again) again.focus();
  }
}
