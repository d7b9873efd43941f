# Euchre bot image.
#   docker build -t euchre-bot .
#   docker run -d --name euchre --restart unless-stopped --stop-timeout 20 -e DISCORD_TOKEN=... -v euchre-data:/data euchre-bot
# Slash commands, once after an upgrade that changes them (it syncs, then exits):
#   docker run --rm -e DISCORD_TOKEN=... euchre-bot python -m bot sync --global
# Options: mount a config file at /app/config.toml, or set EUCHRE_* variables
# (see config.example.toml). The bot runs as uid 10001: a bind-mounted /data folder
# must belong to it (chown 10001:10001 on the host).
# The Activity's client is built from its sources by its pinned toolchain (esbuild and
# Discord's SDK, from the lockfile) in a stage of its own; the build stage puts the result
# where the package ships it (the same files as committed, which CI checks are current).
FROM node:20.18.1-bookworm-slim AS client
WORKDIR /client
COPY bot/web/activity/client/package.json bot/web/activity/client/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY bot/web/activity/client/build.mjs ./
COPY bot/web/activity/client/src ./src
RUN node build.mjs /built

# The rules core and the search are compiled by mypyc (setup.py) in a build stage that
# has a C compiler; the image gets the wheel, not the compiler.
FROM python:3.11.11-slim-bookworm AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md LICENSE ./
COPY bot ./bot
COPY cogs ./cogs
COPY --from=client /built/ ./bot/web/activity/static/
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.11.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    EUCHRE_DATA_DIR=/data

# The web pages' link pictures draw names in DejaVu Sans and emoji in Noto Color Emoji
# (bot/web/drawing.py finds both where Debian puts them; without them it draws stand-ins).
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core fonts-noto-color-emoji \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --system --create-home --user-group --uid 10001 euchre \
    && mkdir /data \
    && chown euchre:euchre /data

WORKDIR /src
# The dependencies get a layer of their own, rebuilt only when pyproject.toml changes.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > requirements.txt \
    && pip install -r requirements.txt

# The project's wheel from the build stage; the check fails the build if it is not compiled.
COPY --from=build /wheels /wheels
RUN pip install --no-deps /wheels/*.whl \
    && rm -rf /wheels /src \
    && cd / && python -c 'import bot, sys; print(bot.BUILD); sys.exit(bot.BUILD.mode != "compiled")'

WORKDIR /app
USER euchre
VOLUME ["/data"]

# Unhealthy when the gateway was not connected in the last two minutes or the
# database does not take a write (python -m bot health says which).
HEALTHCHECK --interval=60s --timeout=20s --start-period=120s --retries=3 \
    CMD ["python", "-m", "bot", "health"]

CMD ["python", "-m", "bot"]
