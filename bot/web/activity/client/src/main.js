// The Activity inside Discord: the real SDK, talking to the Discord client around it.
import { DiscordSDK } from "@discord/embedded-app-sdk";
import { start } from "./app.js";

start((clientId) => new DiscordSDK(clientId));
