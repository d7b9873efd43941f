# Euchre bot image.
#   docker build -t euchre-bot .
#   docker run -d --restart unless-stopped -e DISCORD_TOKEN=... -v euchre-data:/data euchre-bot
# Slash commands, once after an upgrade that changes them (it syncs, then exits):
#   docker run --rm -e DISCORD_TOKEN=... euchre-bot python -m bot sync --global
# Options: mount a config file at /app/config.toml, or set EUCHRE_* variables
# (see config.example.toml). The bot runs as uid 10001: a bind-mounted /data folder
# must belong to it (chown 10001:10001 on the host).
FROM python:3.11.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    EUCHRE_DATA_DIR=/data

RUN useradd --system --create-home --user-group --uid 10001 euchre \
    && mkdir /data \
    && chown euchre:euchre /data

WORKDIR /src
# The dependencies get a layer of their own, rebuilt only when pyproject.toml changes.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > requirements.txt \
    && pip install -r requirements.txt

COPY README.md LICENSE ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-deps . \
    && rm -rf /src

WORKDIR /app
USER euchre
VOLUME ["/data"]

# Unhealthy when the gateway was not connected in the last two minutes or the
# database does not take a write (python -m bot health says which).
HEALTHCHECK --interval=60s --timeout=20s --start-period=120s --retries=3 \
    CMD ["python", "-m", "bot", "health"]

CMD ["python", "-m", "bot"]
