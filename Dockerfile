# Euchre bot image.
#   docker build -t euchre-bot .
#   docker run -e DISCORD_TOKEN=... -v euchre-data:/data euchre-bot
# Options: mount a config file at /app/config.toml, or set EUCHRE_* variables
# (see config.example.toml). One-off global command sync:
#   docker run --rm -e DISCORD_TOKEN=... -v euchre-data:/data euchre-bot python -m bot --sync-global
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    EUCHRE_DATA_DIR=/data

RUN useradd --system --create-home --user-group --uid 10001 euchre \
    && mkdir /data \
    && chown euchre:euchre /data

WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install . \
    && rm -rf /src

WORKDIR /app
USER euchre
VOLUME ["/data"]

CMD ["python", "-m", "bot"]
