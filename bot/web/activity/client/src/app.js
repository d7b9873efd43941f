// The Activity's client: sign in through Discord, hold one websocket to the table of the
// instance's channel, and draw what the server sends. Nothing here decides anything
// about the game: a click sends the move, and the table comes back from the server.
import { draw, drawMessage } from "./draw.js";

const RETRY_MS = [250, 500, 1000, 2000, 4000];

// Inside Discord every request goes through its proxy, at /.proxy/ (mapped to the
// Activity's address by the application's URL mappings); served directly (a tunnel's
// URL override, the tests) the page's own folder is the base.
export function basePath() {
  if (location.hostname.endsWith(".discordsays.com")) return "/.proxy/";
  return new URL(".", location.href).pathname;
}

async function signIn(sdk, clientId, base) {
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const response = await fetch(`${base}api/sign-in`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, instance_id: sdk.instanceId }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.message || "The sign-in failed.");
  return answer.ticket;
}

class Connection {
  constructor(url, ticket, state) {
    this.url = url;
    this.ticket = ticket;
    this.state = state;
    this.tries = 0;
    this.socket = null;
    this.open();
  }

  open() {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ ticket: this.ticket }));
    });
    socket.addEventListener("message", (event) => {
      this.tries = 0;
      this.state.receive(JSON.parse(event.data));
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      if (event.code === 4001) {
        this.state.fail("Your sign-in has expired: close the Activity and open it again.");
        return;
      }
      this.state.connected(false);
      const wait = RETRY_MS[Math.min(this.tries, RETRY_MS.length - 1)];
      this.tries += 1;
      setTimeout(() => this.open(), wait);
    });
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }
}

class State {
  constructor(root) {
    this.root = root;
    this.table = null;
    this.you = null;
    this.me = null;
    this.people = {};
    this.watching = 0;
    this.fourColour = false;
    this.online = false;
    this.notice = "";
    this.connection = null;
  }

  receive(message) {
    if (message.type === "hello") {
      this.me = message.me;
      this.fourColour = message.four_colour;
      this.online = true;
      this.notice = "";
    } else if (message.type === "table") {
      this.table = message.table;
      this.you = message.you;
      this.notice = "";
    } else if (message.type === "people") {
      this.people = message.people;
      this.watching = message.watching;
    } else if (message.type === "refused") {
      this.notice = message.message;
    }
    this.render();
  }

  connected(online) {
    this.online = online;
    this.render();
  }

  fail(text) {
    this.online = false;
    drawMessage(this.root, text);
  }

  request(message) {
    if (!this.connection.send(message)) {
      this.notice = "Reconnecting: try again in a moment.";
      this.render();
    }
  }

  render() {
    draw(this.root, this, (message) => this.request(message));
  }
}

export async function start(makeSdk) {
  const root = document.getElementById("app");
  const clientId = document.body.dataset.client;
  const base = basePath();
  const state = new State(root);
  drawMessage(root, "Signing in with Discord…");
  let ticket;
  try {
    ticket = await signIn(makeSdk(clientId), clientId, base);
  } catch (error) {
    drawMessage(root, `Could not sign in: ${error.message}`);
    return;
  }
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  state.connection = new Connection(`${scheme}//${location.host}${base}ws`, ticket, state);
  window.euchreActivity = state; // the browser tests read what the page holds
}
