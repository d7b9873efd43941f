// The Activity outside Discord, for the browser tests: the SDK's own mock, told by the
// page's query which instance it is in and which code Discord's authorize would give.
import { DiscordSDKMock } from "@discord/embedded-app-sdk";
import { start } from "./app.js";

start((clientId) => {
  const query = new URLSearchParams(location.search);
  const sdk = new DiscordSDKMock(clientId, query.get("guild_id"), query.get("channel_id"), null);
  sdk.instanceId = query.get("instance_id") ?? sdk.instanceId;
  const code = query.get("mock_code") ?? "mock_code";
  sdk._updateCommandMocks({ authorize: async () => ({ code }) });
  return sdk;
});
